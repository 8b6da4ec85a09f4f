/**
 * What each recall signal costs in latency: one scope of synthetic turns (and memories), and for
 * every signal the same questions searched with it and without it, one after the other, so the
 * difference is measured pair by pair on the same machine state. Turn recall's signals are weights
 * of the hybrid (src/retrieval/fusion.ts), taken out by setting them to 0; memory recall adds the
 * steps recall runs around the search: the covering pick, the event reading (past versions searched
 * too) and the turns the memories missed. The base rankers, dense and BM25, are timed alone.
 *
 *   npm run bench -- recall --signals [--sizes 10000,100000] [--queries 200] [--units turns,memories] [--words flat|zipf]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Scope } from "../../src/core/types.js";
import { FUSION_WEIGHTS, type FusionWeights, MEMORY_WEIGHTS } from "../../src/retrieval/fusion.js";
import { searchWithHistory, withMissedTurns } from "../../src/retrieval/history-recall.js";
import { InProcessRetriever } from "../../src/retrieval/in-process-retriever.js";
import { temporalIntent } from "../../src/retrieval/temporal-intent.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { percentile } from "../eval/stats.js";
import { flag } from "./args.js";
import { FixedEmbedder, fillScope, synthetic, type Vocabulary } from "./recall.js";

/** The turn hybrid's signals a weight turns off. Dense and BM25 are the rankers themselves, timed alone. */
const TURN_SIGNALS = ["subject", "time", "dated", "recency", "neighbour", "question", "length"] as const;
/** The memory search's signals a weight turns off (memories have no neighbour or shape signal). */
const MEMORY_SIGNALS = ["source", "subject", "time", "recency"] as const;

/**
 * Questions in three shapes, in turn, so that every signal has questions it fires on: a named time
 * (time), "when" (dated), "now" (recency). Each names Sam (subject). All but the "now" one are in
 * the simple past, so memory recall reads them as questions about an event.
 */
function question(i: number, words: string): string {
  if (i % 3 === 0) return `what did Sam say about ${words} in March 2024?`;
  if (i % 3 === 1) return `when did Sam talk about ${words}?`;
  return `what does Sam think of ${words} now?`;
}

/** One row: p50 / p95 with the signal, without it, and of the per-question difference. */
interface Row {
  name: string;
  with: number[];
  without?: number[];
  /** Which questions the signal can fire on. */
  fires: string;
}

/**
 * Times `withIt` and `withoutIt` on every question, one right after the other, the order swapped
 * on every other question so that neither side always runs on a warmer cache.
 */
async function paired(
  count: number,
  withIt: (i: number) => Promise<unknown>,
  withoutIt: (i: number) => Promise<unknown>,
): Promise<{ with: number[]; without: number[] }> {
  const a: number[] = [];
  const b: number[] = [];
  const time = async (run: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    await run();
    into.push(performance.now() - started);
  };
  for (let i = 0; i < count; i++) {
    if (i % 2) {
      await time(() => withIt(i), a);
      await time(() => withoutIt(i), b);
    } else {
      await time(() => withoutIt(i), b);
      await time(() => withIt(i), a);
    }
  }
  return { with: a, without: b };
}

const without = (weights: FusionWeights, signal: keyof FusionWeights): FusionWeights => ({
  ...weights,
  [signal]: 0,
});

const FIRES: Record<string, string> = {
  subject: "all",
  time: "a third (a named month)",
  dated: "a third (when)",
  recency: "a third (now)",
  neighbour: "all",
  question: "all",
  length: "all",
  source: "all",
  cover: "all",
  "event reading": "two thirds (simple past)",
  "2 missed turns": "all",
};

function ms(xs: number[], p: number): string {
  return `${percentile(xs, p).toFixed(2)}`;
}

function printRows(unit: string, size: number, rows: Row[]): void {
  for (const r of rows) {
    if (!r.without) {
      console.log(
        `| ${unit} | ${size} | ${r.name} | ${ms(r.with, 0.5)} / ${ms(r.with, 0.95)} | | | ${r.fires} |`,
      );
      continue;
    }
    const diff = r.with.map((x, i) => x - r.without![i]!);
    console.log(
      `| ${unit} | ${size} | ${r.name} | ${ms(r.with, 0.5)} / ${ms(r.with, 0.95)} | ${ms(r.without, 0.5)} / ${ms(r.without, 0.95)} | ${ms(diff, 0.5)} | ${r.fires} |`,
    );
  }
}

export async function benchRecallSignals(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "10000,100000").split(",").map(Number);
  const queries = Number(flag(args, "queries", "200"));
  const units = flag(args, "units", "turns,memories").split(",");
  const words = flag(args, "words", "flat") as Vocabulary;
  if (sizes.some((s) => !Number.isInteger(s) || s <= 0) || !Number.isInteger(queries) || queries <= 0)
    throw new Error("--sizes and --queries take whole numbers above 0");
  if (units.some((u) => u !== "turns" && u !== "memories")) throw new Error("--units takes turns, memories");
  if (words !== "flat" && words !== "zipf") throw new Error("--words takes flat or zipf");
  console.log(
    `Each signal's cost: the same ${queries} questions with the signal and without it, pair by pair (${words} words; ms).\n`,
  );
  console.log(
    "| unit | count | signal | with p50 / p95 | without p50 / p95 | cost p50 | questions it can fire on |\n| --- | ---: | --- | ---: | ---: | ---: | --- |",
  );
  for (const unit of units)
    for (const size of sizes) {
      const dir = mkdtempSync(join(tmpdir(), "memlane-bench-signals-"));
      const store = new SqliteStore(join(dir, "b.db"));
      try {
        const synth = synthetic(42, words);
        const scope: Scope = { tenant: "bench", agent: "ava" };
        await fillScope(store, scope, size, unit === "memories", synth);
        const embedder = new FixedEmbedder();
        const retriever = new InProcessRetriever(store, embedder);
        // One vector per question, handed out again whenever it is asked (the cache would).
        const asked = Array.from({ length: queries }, (_, i) => question(i, synth.sentence(3)));
        embedder.next.push(...asked.map(() => synth.vector()));
        for (const q of asked.slice(0, 5)) await embedder.embed([q]);
        await Promise.all([retriever.turnIndex(scope), unit === "turns" ? null : retriever.index(scope)]);
        const rows: Row[] =
          unit === "turns"
            ? await turnRows(retriever, scope, asked)
            : await memoryRows(retriever, store, scope, asked);
        printRows(unit, size, rows);
      } finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
}

async function turnRows(retriever: InProcessRetriever, scope: Scope, asked: string[]): Promise<Row[]> {
  const n = asked.length;
  const search = (i: number, weights: FusionWeights, ranker?: "dense" | "bm25") =>
    retriever.searchTurns(scope, { query: asked[i]!, k: 10, weights, ...(ranker ? { ranker } : {}) });
  // Warm-up: the first searches pay for lazily read times and compiled paths.
  for (let i = 0; i < Math.min(20, n); i++) await search(i, FUSION_WEIGHTS);
  const rows: Row[] = [];
  const alone = async (name: string, ranker: "dense" | "bm25") => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await search(i, FUSION_WEIGHTS, ranker);
      times.push(performance.now() - started);
    }
    rows.push({ name, with: times, fires: "all" });
  };
  await alone("dense alone", "dense");
  await alone("bm25 alone", "bm25");
  const all: number[] = [];
  for (const signal of TURN_SIGNALS) {
    const t = await paired(
      n,
      (i) => search(i, FUSION_WEIGHTS),
      (i) => search(i, without(FUSION_WEIGHTS, signal)),
    );
    all.push(...t.with);
    rows.push({ name: signal, ...t, fires: FIRES[signal]! });
  }
  rows.splice(2, 0, { name: "hybrid (every signal)", with: all, fires: "all" });
  return rows;
}

async function memoryRows(
  retriever: InProcessRetriever,
  store: SqliteStore,
  scope: Scope,
  asked: string[],
): Promise<Row[]> {
  const n = asked.length;
  const search = (i: number, weights: FusionWeights = MEMORY_WEIGHTS, k = 10) =>
    retriever.searchMemories(scope, { query: asked[i]!, k, weights });
  for (let i = 0; i < Math.min(20, n); i++) await search(i);
  const rows: Row[] = [];
  const all: number[] = [];
  for (const signal of MEMORY_SIGNALS) {
    const t = await paired(
      n,
      (i) => search(i),
      (i) => search(i, without(MEMORY_WEIGHTS, signal)),
    );
    all.push(...t.with);
    rows.push({ name: signal, ...t, fires: FIRES[signal]! });
  }
  rows.unshift({ name: "hybrid search (every signal)", with: all, fires: "all" });
  // Recall's own steps around the search, each against recall without it.
  const none = { kind: "none" } as const;
  const ordinary = (i: number) =>
    searchWithHistory(retriever, store, scope, { query: asked[i]!, k: 10 }, none);
  rows.push({
    name: "cover",
    ...(await paired(n, ordinary, (i) => search(i))),
    fires: FIRES.cover!,
  });
  rows.push({
    name: "event reading",
    ...(await paired(
      n,
      (i) =>
        searchWithHistory(retriever, store, scope, { query: asked[i]!, k: 10 }, temporalIntent(asked[i]!)),
      ordinary,
    )),
    fires: FIRES["event reading"]!,
  });
  rows.push({
    name: "2 missed turns",
    ...(await paired(
      n,
      async (i) => withMissedTurns(retriever, scope, (await ordinary(i)).hits, { query: asked[i]! }, 2),
      ordinary,
    )),
    fires: FIRES["2 missed turns"]!,
  });
  return rows;
}
