/**
 * `memlane eval currency`: does memory stay current without losing the past? Each conversation is
 * ingested once per strategy into a fresh in-memory store; then every question is recalled (top 3,
 * about the partner, with the question's `asked_at` as the present) and scored:
 *   - hit@3: a gold turn is among the top 3 (a memory counts through its source turns);
 *   - stale@1 (current questions): the first hit is a stale turn, or a memory made from a stale
 *     turn and from no gold one — an outdated statement outranks the present.
 * `none` is raw turns (no memory at all): the baseline every memory strategy should beat.
 */
import type { Cognition } from "../../../src/cognition/cognition.js";
import type { RecallHit } from "../../../src/core/recall.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { CURRENCY_KINDS, type CurrencyKind, type CurrencyQuestion, type CurrencySet } from "./dataset.js";

/** How many hits a question is judged on. */
export const CURRENCY_K = 3;

export interface CurrencyCell {
  questions: number;
  /** Questions whose top 3 hold a gold turn. */
  hits: number;
  /** Questions whose first hit is stale (counted for current questions only). */
  staleFirst: number;
}

export type CurrencyGroup = CurrencyKind | "all";
export type CurrencySplitKey = "tune" | "test" | "all";

export interface CurrencyRow {
  strategy: string;
  /** What the strategy ranks: raw turns for `none`, memories otherwise. */
  units: "turns" | "memories";
  cells: Record<CurrencySplitKey, Record<CurrencyGroup, CurrencyCell>>;
  /** Per question, in file order: hit and stale-first, and the first hit's text (for reading). */
  answers: { line: number; hit: boolean; staleFirst: boolean; first: string | null }[];
}

export interface CurrencyReport {
  k: number;
  conversations: number;
  questions: number;
  rows: CurrencyRow[];
  elapsedMs: number;
}

export interface CurrencyPorts {
  embedder: Embedder;
  /** A fresh cognition engine per strategy (an offline one keeps caches). */
  cognition: () => Cognition;
}

export interface CurrencyProgress {
  done: number;
  total: number;
  label: string;
}

/** Scores one question's top hits: gold among them, and whether a stale statement comes first. */
export function scoreHits(
  hits: Pick<RecallHit, "sourceTurns">[],
  q: Pick<CurrencyQuestion, "gold" | "stale">,
): { hit: boolean; staleFirst: boolean } {
  const gold = new Set(q.gold);
  const stale = new Set(q.stale);
  const hit = hits.slice(0, CURRENCY_K).some((h) => h.sourceTurns.some((t) => gold.has(t)));
  const first = hits[0]?.sourceTurns ?? [];
  const staleFirst = first.some((t) => stale.has(t)) && !first.some((t) => gold.has(t));
  return { hit, staleFirst };
}

function emptyCells(): CurrencyRow["cells"] {
  const groups = () =>
    Object.fromEntries(
      [...CURRENCY_KINDS, "all"].map((g) => [g, { questions: 0, hits: 0, staleFirst: 0 }]),
    ) as Record<CurrencyGroup, CurrencyCell>;
  return { tune: groups(), test: groups(), all: groups() };
}

export async function evaluateCurrency(
  set: CurrencySet,
  strategies: string[],
  ports: CurrencyPorts,
  onProgress?: (p: CurrencyProgress) => void,
): Promise<CurrencyReport> {
  const started = performance.now();
  const total = strategies.length * set.conversations.length;
  let done = 0;
  const rows: CurrencyRow[] = [];
  for (const strategy of strategies) {
    const units = strategy === "none" ? "turns" : "memories";
    const row: CurrencyRow = { strategy, units, cells: emptyCells(), answers: [] };
    const cognition = ports.cognition();
    const scored = new Map<CurrencyQuestion, { hit: boolean; staleFirst: boolean; first: string | null }>();
    for (const conv of set.conversations) {
      onProgress?.({ done, total, label: `${strategy}: ${conv.id}` });
      const mem = await openMemlane({
        store: ":memory:",
        embedder: ports.embedder,
        cognition,
        strategy,
        tenant: "eval",
      });
      try {
        await mem.ingest(conv.transcript);
        for (const q of set.questions.filter((x) => x.conv === conv.id)) {
          const { hits } = await mem.recall({
            agent: conv.transcript.agent,
            about: conv.partner,
            query: q.question,
            now: q.askedAt,
            k: CURRENCY_K,
            units,
          });
          scored.set(q, { ...scoreHits(hits, q), first: hits[0]?.text ?? null });
        }
      } finally {
        await mem.close();
      }
      done++;
    }
    for (const q of set.questions) {
      const s = scored.get(q)!;
      row.answers.push({ line: q.line, ...s });
      for (const split of [q.split, "all"] as const)
        for (const group of [q.kind, "all"] as const) {
          const cell = row.cells[split][group];
          cell.questions++;
          if (s.hit) cell.hits++;
          if (q.kind === "current" && s.staleFirst) cell.staleFirst++;
        }
    }
    rows.push(row);
  }
  onProgress?.({ done, total, label: "done" });
  return {
    k: CURRENCY_K,
    conversations: set.conversations.length,
    questions: set.questions.length,
    rows,
    elapsedMs: performance.now() - started,
  };
}
