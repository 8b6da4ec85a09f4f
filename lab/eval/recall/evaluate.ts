/**
 * `memlane eval recall`: turn-level recall@k on LoCoMo. Each conversation is ingested, every
 * question of categories 1-4 is asked, and recall@k is the share of its evidence turns found
 * among the source turns of the top-k hits. Malformed or dangling evidence ids are counted.
 */

import type { Cognition } from "../../../src/cognition/cognition.js";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import { type Scope, STANDING_KIND } from "../../../src/core/types.js";
import type { LocomoSample } from "../../../src/engine/ingest/formats/locomo.js";
import type { Memlane } from "../../../src/engine/memlane.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { FUSION_WEIGHTS, type FusionWeights, MEMORY_WEIGHTS } from "../../../src/retrieval/fusion.js";
import { searchWithHistory, withMissedTurns } from "../../../src/retrieval/history-recall.js";
import { InProcessRetriever } from "../../../src/retrieval/in-process-retriever.js";
import { temporalIntent } from "../../../src/retrieval/temporal-intent.js";
import { TurnIndex, type TurnRanker } from "../../../src/retrieval/turn-search.js";

export const CATEGORY_NAMES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

/** A category key of a report ("1" … "4", or "all") as its tables name it: "1 multi-hop", "all (1-4)". */
export function categoryLabel(key: string): string {
  return key === "all" ? "all (1-4)" : `${key} ${CATEGORY_NAMES[Number(key)] ?? ""}`.trim();
}

/**
 * A signal the hybrid can be run without, to show what it adds (`hybrid-no-time` …); `cover`, for
 * memories only, is recall's covering pick (retrieval/evidence-cover.ts).
 */
export type Ablation = keyof FusionWeights | "cover";
export const ABLATIONS: Ablation[] = [
  "dense",
  "bm25",
  "subject",
  "time",
  "dated",
  "recency",
  "source",
  "neighbour",
  "question",
  "length",
  "cover",
];

export interface RecallReport {
  ks: number[];
  /** Row names: the rankers, then `hybrid-no-<signal>` for each ablation. */
  rankers: string[];
  questions: number;
  /** recall[ranker][category or "all"][k] */
  recall: Record<string, Record<string, Record<number, number>>>;
  questionsByCategory: Record<string, number>;
  /**
   * Questions whose evidence is two turns or more: coverage[ranker][category or "all"][k] counts
   * those with every piece in the top k, with some, and with none. Recall averages pieces; this
   * says whether a question's whole evidence set was found, which is what a multi-hop answer needs.
   */
  coverage: Record<string, Record<string, Record<number, { questions: number; all: number; some: number }>>>;
  evidence: { total: number; malformed: number; dangling: number };
  /**
   * Memories only: reach[category or "all"] is the mean share of a question's evidence turns that
   * some memory cites, among current memories and among current and past ones. It is the most any
   * ranking of these memories could find, however deep: evidence no memory cites is lost by the
   * writer (the summary kept nothing from the turn, or only a retired version cites it), not by
   * the ranking.
   */
  reach?: Record<string, { current: number; withPast: number }>;
  elapsedMs: number;
}

export type RecallUnits = "turns" | "memories";

export interface RecallOptions {
  ks?: number[];
  rankers?: TurnRanker[];
  /** Rank raw turns (default) or a strategy's memories, scored through their source turns. */
  units?: RecallUnits;
  /** Strategy that writes the memories when units are memories (default carecall). */
  strategy?: string;
  /** Also run the hybrid without each of these signals. */
  ablations?: Ablation[];
  /**
   * Memories: also run the hybrid as `recall({ turns: n })` returns it, for each n here: at a cut
   * of k, k − n memories and then up to n turns that none of them was made from (the best memory
   * always stays).
   */
  turns?: number[];
  /** Who writes the memories (default: the offline engine with its shipped models). */
  cognition?: Cognition;
  onProgress?: (s: string) => void;
}

/** The rankers each kind of unit supports. */
export const RANKERS_FOR: Record<RecallUnits, TurnRanker[]> = {
  turns: ["bm25", "dense", "rrf", "hybrid"],
  memories: ["bm25", "dense", "rrf", "hybrid"],
};

/**
 * The units a query finds, searched once as deep as the largest k: `top(k)` gives the source
 * turns of the top k, one list per hit.
 */
type Searcher = (
  query: string,
  k: number,
  ranker: TurnRanker,
  weights?: FusionWeights,
  cover?: boolean,
  turns?: number,
) => Promise<(k: number) => string[][]>;

interface Row {
  name: string;
  ranker: TurnRanker;
  weights?: FusionWeights;
  /** Memories: the covering pick recall makes (default true). */
  cover?: boolean;
  /** Memories: places of each k given to the turns the memories missed (`RecallOptions.turns`). */
  turns?: number;
}

export async function evaluateRecall(
  samples: LocomoSample[],
  embedder: Embedder,
  options: RecallOptions = {},
): Promise<RecallReport> {
  const ks = options.ks ?? [1, 5, 10, 25];
  const units = options.units ?? "turns";
  const rankers = options.rankers ?? RANKERS_FOR[units];
  if (ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidInputError("k values must be positive whole numbers");
  const unsupported = rankers.filter((r) => !RANKERS_FOR[units].includes(r));
  if (unsupported.length)
    throw new InvalidInputError(
      `Ranker(s) ${unsupported.join(", ")} do not apply to ${units}; use ${RANKERS_FOR[units].join(", ")}`,
    );
  if (units === "turns" && options.turns?.length)
    throw new InvalidInputError(
      "Turns the memories missed apply to memories only: with turn units every hit is a turn",
    );
  if (options.turns?.some((n) => !Number.isInteger(n) || n < 1))
    throw new InvalidInputError("Turn places must be positive whole numbers");
  if (units === "turns" && options.ablations?.includes("cover"))
    throw new InvalidInputError(
      "The cover ablation applies to memories only: every turn is its own evidence",
    );
  const base = units === "turns" ? FUSION_WEIGHTS : MEMORY_WEIGHTS;
  const rows: Row[] = [
    ...rankers.map((ranker) => ({ name: ranker, ranker })),
    ...(options.ablations ?? []).map((signal) =>
      signal === "cover"
        ? { name: "hybrid-no-cover", ranker: "hybrid" as const, cover: false }
        : { name: `hybrid-no-${signal}`, ranker: "hybrid" as const, weights: { ...base, [signal]: 0 } },
    ),
    ...[...new Set(options.turns ?? [])].map((n) => ({
      name: `hybrid+${n}-turns`,
      ranker: "hybrid" as const,
      turns: n,
    })),
  ];
  const started = performance.now();
  const sums: Record<string, Record<string, Record<number, number>>> = {};
  const counts: Record<string, number> = {};
  const coverage: RecallReport["coverage"] = {};
  const evidence = { total: 0, malformed: 0, dangling: 0 };
  const reach: Record<string, { current: number; withPast: number }> = {};
  for (const r of rows) sums[r.name] = {};
  for (const sample of samples) {
    const strategy = units === "memories" ? (options.strategy ?? "carecall") : "none";
    options.onProgress?.(
      `${sample.sampleId}: ingesting ${sample.transcript.sessions.length} sessions (${strategy})`,
    );
    const mem = await openMemlane({
      store: ":memory:",
      cognition: options.cognition ?? new OfflineCognition(embedder),
      embedder,
      strategy,
      tenant: "eval",
    });
    await mem.ingest(sample.transcript);
    const scope = mem.scope(sample.transcript.agent);
    const index = await TurnIndex.build(mem.store, scope, embedder);
    const known = new Set(index.turns.map((t) => t.id));
    const search: Searcher =
      units === "turns" ? turnSearcher(index) : await memorySearcher(mem, scope, embedder, strategy, ks);
    const cited = units === "memories" ? await citedTurns(mem, scope, strategy) : null;
    const questions = sample.qa.filter((q) => q.category >= 1 && q.category <= 4);
    options.onProgress?.(`${sample.sampleId}: asking ${questions.length} questions`);
    for (const q of questions) {
      const ids: string[] = [];
      for (const raw of Array.isArray(q.evidence) ? q.evidence : []) {
        for (const part of String(raw)
          .split(/[;,\s]+/)
          .filter(Boolean)) {
          evidence.total++;
          if (!/^D\d+:\d+$/.test(part)) evidence.malformed++;
          else if (!known.has(`${sample.sampleId}:${part}`)) evidence.dangling++;
          else ids.push(`${sample.sampleId}:${part}`);
        }
      }
      if (ids.length === 0) continue;
      const category = String(q.category);
      counts[category] = (counts[category] ?? 0) + 1;
      counts.all = (counts.all ?? 0) + 1;
      if (cited)
        for (const key of [category, "all"]) {
          reach[key] ??= { current: 0, withPast: 0 };
          reach[key]!.current += ids.filter((id) => cited.current.has(id)).length / ids.length;
          reach[key]!.withPast +=
            ids.filter((id) => cited.current.has(id) || cited.past.has(id)).length / ids.length;
        }
      for (const row of rows) {
        const top = await search(
          q.question,
          Math.max(...ks),
          row.ranker,
          row.weights,
          row.cover ?? true,
          row.turns,
        );
        for (const k of ks) {
          const found = new Set(top(k).flat());
          const share = ids.filter((id) => found.has(id)).length / ids.length;
          for (const key of [category, "all"]) {
            sums[row.name]![key] ??= {};
            sums[row.name]![key]![k] = (sums[row.name]![key]![k] ?? 0) + share;
            if (ids.length < 2) continue;
            coverage[row.name] ??= {};
            coverage[row.name]![key] ??= {};
            coverage[row.name]![key]![k] ??= { questions: 0, all: 0, some: 0 };
            const c = coverage[row.name]![key]![k]!;
            c.questions++;
            if (share === 1) c.all++;
            else if (share > 0) c.some++;
          }
        }
      }
    }
    await mem.close();
  }
  const recall: RecallReport["recall"] = {};
  for (const { name: r } of rows) {
    recall[r] = {};
    for (const [key, byK] of Object.entries(sums[r]!))
      recall[r]![key] = Object.fromEntries(
        Object.entries(byK).map(([k, v]) => [Number(k), v / counts[key]!]),
      );
  }
  for (const [key, r] of Object.entries(reach)) {
    r.current /= counts[key]!;
    r.withPast /= counts[key]!;
  }
  return {
    ks,
    rankers: rows.map((r) => r.name),
    questions: counts.all ?? 0,
    recall,
    questionsByCategory: counts,
    coverage,
    evidence,
    ...(units === "memories" ? { reach } : {}),
    elapsedMs: performance.now() - started,
  };
}

/** The turns the strategy's current memories cite, and those only its past (superseded) versions cite. */
async function citedTurns(
  mem: Memlane,
  scope: Scope,
  strategy: string,
): Promise<{ current: Set<string>; past: Set<string> }> {
  const current = new Set<string>();
  const past = new Set<string>();
  const memories = await mem.store.listMemories(scope, { strategy, status: ["active", "superseded"] });
  for (const m of memories) {
    if (m.kind === STANDING_KIND) continue;
    for (const t of m.sourceTurns) (m.status === "active" ? current : past).add(t);
  }
  for (const t of current) past.delete(t);
  return { current, past };
}

function turnSearcher(index: TurnIndex): Searcher {
  return async (query, k, ranker, weights) => {
    const hits = (await index.search(query, { k, ranker, weights })).map((h) => h.sourceTurns);
    return (n) => hits.slice(0, n);
  };
}

/**
 * The strategy's memories (not the standing items kept beside them) ranked by BM25 alone, the
 * encoder alone, or the retriever's fusion of both. The hybrid answers as recall does
 * (history-recall.ts): its k are picked to cover the evidence (evidence-cover.ts), and a question
 * about history or about an event looks at past versions too; with `cover` false, it is the
 * fusion's plain top k over current memories.
 */
async function memorySearcher(
  mem: Memlane,
  scope: Scope,
  embedder: Embedder,
  strategy: string,
  ks: number[],
): Promise<Searcher> {
  const retriever = new InProcessRetriever(mem.store, embedder, "rrf");
  const hybrid = new InProcessRetriever(mem.store, embedder, "scaled");
  const index = await retriever.index(scope);
  const filter = { strategy };
  const admitted = index.admitted(filter);
  return async (query, k, ranker, weights, cover, turns = 0) => {
    if (ranker === "hybrid" && cover) {
      // Each k is a recall of k; the question is read once for all of them.
      const intent = temporalIntent(query);
      const byK = new Map<number, string[][]>();
      for (const n of ks) {
        const raw = Math.min(turns, n - 1);
        const search = { query, k: n - raw, weights, filter };
        const { hits } = await searchWithHistory(hybrid, mem.store, scope, search, intent);
        const shown = await withMissedTurns(hybrid, scope, hits, { query }, raw);
        byK.set(
          n,
          shown.map((h) => h.sourceTurns),
        );
      }
      return (n) => byK.get(n) ?? [];
    }
    if (ranker === "rrf" || ranker === "hybrid") {
      const hits = (
        await (ranker === "rrf" ? retriever : hybrid).searchMemories(scope, { query, k, weights, filter })
      ).map((h) => h.sourceTurns);
      return (n) => hits.slice(0, n);
    }
    const docs =
      ranker === "dense"
        ? index.dense((await embedder.embed([query]))[0]!, admitted, k).map((h) => h.doc)
        : [...index.bm25(query, admitted)]
            .sort((a, b) => b[1] - a[1])
            .slice(0, k)
            .map(([doc]) => doc);
    const hits = docs.map((doc) => index.memories[doc]!.sourceTurns);
    return (n) => hits.slice(0, n);
  };
}

export function recallMarkdown(r: RecallReport): string {
  const keys = ["all", "1", "2", "3", "4"].filter((k) => r.questionsByCategory[k]);
  const lines = [
    `| ranker | category | questions | ${r.ks.map((k) => `R@${k}`).join(" | ")} |`,
    `| --- | --- | ---: |${r.ks.map(() => " ---: |").join("")}`,
  ];
  for (const key of keys)
    for (const ranker of r.rankers)
      lines.push(
        `| ${ranker} | ${categoryLabel(key)} | ${r.questionsByCategory[key]} | ${r.ks.map((k) => (r.recall[ranker]![key]?.[k] ?? 0).toFixed(3)).join(" | ")} |`,
      );
  const multi = keys.filter((key) => r.coverage[r.rankers[0]!]?.[key]);
  if (multi.length) {
    lines.push(
      "",
      "Questions with two or more evidence turns: share with every piece in the top k / with some of them, %:",
      "",
      `| ranker | category | questions | ${r.ks.map((k) => `k=${k}`).join(" | ")} |`,
      `| --- | --- | ---: |${r.ks.map(() => " ---: |").join("")}`,
    );
    for (const key of multi)
      for (const ranker of r.rankers) {
        const byK = r.coverage[ranker]?.[key] ?? {};
        const n = byK[r.ks[0]!]?.questions ?? 0;
        const cell = (k: number) => {
          const c = byK[k];
          return c
            ? `${((100 * c.all) / c.questions).toFixed(1)} / ${((100 * c.some) / c.questions).toFixed(1)}`
            : "–";
        };
        lines.push(`| ${ranker} | ${categoryLabel(key)} | ${n} | ${r.ks.map(cell).join(" | ")} |`);
      }
  }
  if (r.reach) {
    lines.push(
      "",
      "Reach: the share of a question's evidence that some memory cites, the most any ranking of these memories can find (current memories / current or past):",
      "",
      "| category | questions | current | current or past |",
      "| --- | ---: | ---: | ---: |",
    );
    for (const key of keys) {
      const x = r.reach[key];
      if (x)
        lines.push(
          `| ${categoryLabel(key)} | ${r.questionsByCategory[key]} | ${x.current.toFixed(3)} | ${x.withPast.toFixed(3)} |`,
        );
    }
  }
  lines.push(
    "",
    `Evidence ids: ${r.evidence.total} read, ${r.evidence.malformed} malformed, ${r.evidence.dangling} dangling (not scored).`,
  );
  return lines.join("\n");
}
