/**
 * `memlane eval emma`: each episode is ingested by each strategy (offline cognition, one
 * in-memory store per strategy and episode), then every question is put to the strategy's recall
 * as the asking partner says it. A hit is a recalled memory made from a gold turn. We report
 * hit@1, hit@k of what the retriever ranked, for EMMA also hit@1 with the linked memories it adds,
 * and how often the top memory is about someone other than the person the answer concerns
 * (wrong person), per part (tune / test) and per kind of question.
 */
import type { Cognition } from "../../../src/cognition/cognition.js";
import type { RecallHit } from "../../../src/core/recall.js";
import { addUsage, emptyUsage, type Usage } from "../../../src/core/types.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { carecallStrategy } from "../../../src/strategies/carecall/carecall.js";
import { creemStrategy } from "../../../src/strategies/creem/creem.js";
import { type EmmaOptions, emmaStrategy } from "../../../src/strategies/emma/emma.js";
import type { Strategy } from "../../../src/strategies/strategy.js";
import { theanineStrategy } from "../../../src/strategies/theanine/theanine.js";
import type { EmmaEpisode, EmmaQuestion } from "./dataset.js";

export const EMMA_COMPARED = ["emma", "carecall", "theanine", "creem"] as const;

/** One question's outcome for one strategy. */
export interface EmmaRecord {
  strategy: string;
  question: string;
  episode: string;
  part: "tune" | "test";
  kind: EmmaQuestion["kind"];
  hit1: boolean;
  /** Top-1 plus the memories linked to it (EMMA); the same as hit1 for the others. */
  hit1Linked: boolean;
  hitK: boolean;
  /** The top memory is about someone other than the person the answer concerns. */
  wrongPerson: boolean;
  /** The top memory holds the answer but names the wrong person as its subject. */
  misattributed: boolean;
  top: { about: string; text: string } | null;
}

export interface EmmaCost {
  sessions: number;
  usage: Usage;
}

export interface EmmaReport {
  k: number;
  episodes: number;
  questions: number;
  records: EmmaRecord[];
  /** Per strategy: memories written, and how many of them are about each kind of subject. */
  memories: Record<string, { total: number; aboutAgent: number; aboutPartners: number; links: number }>;
  /** Model use of consolidation per strategy (zero for offline cognition). */
  cost: Record<string, EmmaCost>;
}

export interface EmmaEvalOptions {
  embedder: Embedder;
  /** A fresh cognition per store (offline, or the LLM engine over a scripted or real model). */
  cognition: () => Cognition;
  strategies?: string[];
  /** How many retrieved memories count for hit@k (default 5). */
  k?: number;
  emma?: EmmaOptions;
  /** Keep standing instructions (default false: the paper's protocol has none). */
  standing?: boolean;
  onProgress?: (done: number, total: number, label: string) => void;
}

function strategyFor(name: string, emma: EmmaOptions, k: number): Strategy {
  switch (name) {
    case "emma":
      return emmaStrategy(emma);
    case "carecall":
      return carecallStrategy({ k });
    case "theanine":
      return theanineStrategy({ k });
    case "creem":
      return creemStrategy({ k });
    default:
      throw new Error(`eval emma compares ${EMMA_COMPARED.join(", ")}, not ${name}`);
  }
}

const fromGold = (hit: RecallHit | undefined, q: EmmaQuestion) =>
  hit?.sourceTurns.some((t) => q.goldTurns.includes(t)) ?? false;

export async function evaluateEmma(episodes: EmmaEpisode[], options: EmmaEvalOptions): Promise<EmmaReport> {
  const names = options.strategies ?? [...EMMA_COMPARED];
  const k = options.k ?? 5;
  const records: EmmaRecord[] = [];
  const memories: EmmaReport["memories"] = {};
  const cost: EmmaReport["cost"] = {};
  const total = names.length * episodes.length;
  let done = 0;
  for (const name of names) {
    memories[name] = { total: 0, aboutAgent: 0, aboutPartners: 0, links: 0 };
    cost[name] = { sessions: 0, usage: emptyUsage() };
    for (const episode of episodes) {
      options.onProgress?.(done++, total, `${name} ${episode.id}`);
      const mem = await openMemlane({
        store: ":memory:",
        embedder: options.embedder,
        cognition: options.cognition(),
        strategies: [strategyFor(name, options.emma ?? {}, k)],
        strategy: name,
        standing: options.standing ?? false,
      });
      try {
        const { agent } = episode.transcript;
        await mem.ingest(episode.transcript);
        const scope = mem.scope(agent);
        const stored = await mem.memories(agent, { strategy: name });
        memories[name]!.total += stored.length;
        memories[name]!.aboutAgent += stored.filter((m) => m.about === agent).length;
        memories[name]!.aboutPartners += stored.filter((m) => m.about !== agent).length;
        memories[name]!.links += (await mem.store.listEdges(scope)).filter((e) => e.type === "Link").length;
        for (const op of await mem.store.listOperations(scope))
          cost[name]!.usage = addUsage(cost[name]!.usage, op.usage);
        cost[name]!.sessions += episode.transcript.sessions.length;
        for (const q of episode.questions) {
          // Asked as a reply to the asker would be: the agent's whole memory, and of the private
          // memories only the asker's own.
          const ranked = await mem.recall({
            agent,
            scope: "agent",
            about: q.askedBy,
            query: q.ask,
            strategy: name,
            k,
            now: q.at,
          });
          const retrieved = ranked.hits.filter((h) => !h.explanation.linked).slice(0, k);
          // EMMA as the paper runs it: the top memory and the memories linked to it.
          const paper =
            name === "emma"
              ? (
                  await mem.recall({
                    agent,
                    scope: "agent",
                    about: q.askedBy,
                    query: q.ask,
                    strategy: name,
                    k: 1,
                    now: q.at,
                  })
                ).hits
              : retrieved.slice(0, 1);
          const top = retrieved[0];
          records.push({
            strategy: name,
            question: q.id,
            episode: episode.id,
            part: episode.part,
            kind: q.kind,
            hit1: fromGold(top, q),
            hit1Linked: paper.some((h) => fromGold(h, q)),
            hitK: retrieved.some((h) => fromGold(h, q)),
            wrongPerson: top !== undefined && top.about !== q.person,
            misattributed: fromGold(top, q) && top!.about !== q.person,
            top: top ? { about: top.about, text: top.text } : null,
          });
        }
      } finally {
        await mem.close();
      }
    }
  }
  options.onProgress?.(done, total, "done");
  return {
    k,
    episodes: episodes.length,
    questions: episodes.reduce((n, e) => n + e.questions.length, 0),
    records,
    memories,
    cost,
  };
}

/** Shares of a set of records, as the tables print them. */
export function emmaShares(rs: EmmaRecord[]) {
  const share = (f: (r: EmmaRecord) => boolean) => (rs.length ? rs.filter(f).length / rs.length : 0);
  const hits = rs.filter((r) => r.hit1);
  return {
    questions: rs.length,
    hit1: share((r) => r.hit1),
    hit1Linked: share((r) => r.hit1Linked),
    hitK: share((r) => r.hitK),
    wrongPerson: share((r) => r.wrongPerson),
    misattributed: hits.length ? hits.filter((r) => r.misattributed).length / hits.length : 0,
  };
}

export function emmaMarkdown(report: EmmaReport): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const strategies = Object.keys(report.memories);
  const out: string[] = [];
  for (const part of ["test", "tune"] as const) {
    const inPart = report.records.filter((r) => r.part === part);
    if (inPart.length === 0) continue;
    const episodes = new Set(inPart.map((r) => r.episode)).size;
    out.push(
      `### ${part} part (${episodes} episodes, ${inPart.length / strategies.length} questions)`,
      "",
      `| strategy | hit@1 | hit@1 + links | hit@${report.k} | wrong person (top 1) | misattributed hits |`,
      "| --- | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const s of strategies) {
      const x = emmaShares(inPart.filter((r) => r.strategy === s));
      out.push(
        `| ${s} | ${pct(x.hit1)} | ${s === "emma" ? pct(x.hit1Linked) : "–"} | ${pct(x.hitK)} | ${pct(x.wrongPerson)} | ${pct(x.misattributed)} |`,
      );
    }
    out.push(
      "",
      `By kind of question (${part}):`,
      "",
      "| strategy | kind | questions | hit@1 | hit@1 + links | hit@k |",
      "| --- | --- | ---: | ---: | ---: | ---: |",
    );
    for (const s of strategies)
      for (const kind of ["cross-partner", "development"] as const) {
        const x = emmaShares(inPart.filter((r) => r.strategy === s && r.kind === kind));
        if (x.questions)
          out.push(
            `| ${s} | ${kind} | ${x.questions} | ${pct(x.hit1)} | ${s === "emma" ? pct(x.hit1Linked) : "–"} | ${pct(x.hitK)} |`,
          );
      }
    out.push("");
  }
  out.push(
    `Memories written (the ${report.episodes} episodes played):`,
    "",
    "| strategy | memories | about the agent | about partners | links | model calls | prompt tokens | completion tokens |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const s of strategies) {
    const m = report.memories[s]!;
    const c = report.cost[s]!;
    out.push(
      `| ${s} | ${m.total} | ${m.aboutAgent} | ${m.aboutPartners} | ${m.links} | ${c.usage.calls} | ${c.usage.promptTokens} | ${c.usage.completionTokens} |`,
    );
  }
  return out.join("\n");
}
