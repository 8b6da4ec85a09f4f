/**
 * `memlane eval recall`: turn-level recall@k on LoCoMo. Each conversation is ingested, every
 * question of categories 1-4 is asked, and recall@k is the share of its evidence turns found
 * among the source turns of the top-k hits. Malformed or dangling evidence ids are counted.
 */

import { OfflineCognition } from "../../cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../core/errors.js";
import type { LocomoSample } from "../../engine/formats/locomo.js";
import { Memlane } from "../../engine/memlane.js";
import type { Embedder } from "../../models/embedder.js";
import { TurnIndex, type TurnRanker } from "../../retrieval/turn-search.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { createStrategy } from "../../strategies/registry.js";

export const CATEGORY_NAMES: Record<number, string> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

export interface RecallReport {
  ks: number[];
  rankers: TurnRanker[];
  questions: number;
  /** recall[ranker][category or "all"][k] */
  recall: Record<string, Record<string, Record<number, number>>>;
  questionsByCategory: Record<string, number>;
  evidence: { total: number; malformed: number; dangling: number };
  elapsedMs: number;
}

export async function evaluateRecall(
  samples: LocomoSample[],
  embedder: Embedder,
  options: { ks?: number[]; rankers?: TurnRanker[]; onProgress?: (s: string) => void } = {},
): Promise<RecallReport> {
  const ks = options.ks ?? [1, 5, 10, 25];
  const rankers = options.rankers ?? ["bm25", "dense", "rrf", "hybrid"];
  if (ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidInputError("k values must be positive whole numbers");
  const started = performance.now();
  const sums: Record<string, Record<string, Record<number, number>>> = {};
  const counts: Record<string, number> = {};
  const evidence = { total: 0, malformed: 0, dangling: 0 };
  for (const r of rankers) sums[r] = {};
  for (const sample of samples) {
    options.onProgress?.(`${sample.sampleId}: ingesting ${sample.transcript.sessions.length} sessions`);
    const mem = new Memlane(
      new SqliteStore(":memory:"),
      new OfflineCognition(embedder),
      embedder,
      createStrategy("none"),
      "eval",
    );
    await mem.ingest(sample.transcript);
    const scope = mem.scope(sample.transcript.agent);
    const index = await TurnIndex.build(mem.store, scope, embedder);
    const known = new Set(index.turns.map((t) => t.id));
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
      const named = index.named(q.question);
      for (const ranker of rankers) {
        const hits = await index.search(q.question, { k: Math.max(...ks), ranker, speakers: named });
        for (const k of ks) {
          const found = new Set(hits.slice(0, k).flatMap((h) => h.sourceTurns));
          const share = ids.filter((id) => found.has(id)).length / ids.length;
          for (const key of [category, "all"]) {
            sums[ranker]![key] ??= {};
            sums[ranker]![key]![k] = (sums[ranker]![key]![k] ?? 0) + share;
          }
        }
      }
    }
    await mem.close();
  }
  const recall: RecallReport["recall"] = {};
  for (const r of rankers) {
    recall[r] = {};
    for (const [key, byK] of Object.entries(sums[r]!))
      recall[r]![key] = Object.fromEntries(
        Object.entries(byK).map(([k, v]) => [Number(k), v / counts[key]!]),
      );
  }
  return {
    ks,
    rankers,
    questions: counts.all ?? 0,
    recall,
    questionsByCategory: counts,
    evidence,
    elapsedMs: performance.now() - started,
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
        `| ${ranker} | ${key === "all" ? "all (1-4)" : `${key} ${CATEGORY_NAMES[Number(key)]}`} | ${r.questionsByCategory[key]} | ${r.ks.map((k) => (r.recall[ranker]![key]?.[k] ?? 0).toFixed(3)).join(" | ")} |`,
      );
  lines.push(
    "",
    `Evidence ids: ${r.evidence.total} read, ${r.evidence.malformed} malformed, ${r.evidence.dangling} dangling (not scored).`,
  );
  return lines.join("\n");
}
