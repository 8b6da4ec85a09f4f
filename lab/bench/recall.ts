/**
 * Recall latency at scale: 1K, 10K and 100K memories, and as many turns, in one scope. Units get
 * synthetic text (ten words drawn from a 30-word list, so every query term matches about a third
 * of the scope: a hard case for BM25) and random unit vectors (embedding 100K sentences here would
 * take most of an hour), so the figures are of search itself; the bundled encoder's time to embed
 * one query is measured separately and adds to every live recall.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../../src/core/ids.js";
import { seededRandom } from "../../src/core/memory-graph.js";
import type { Memory, Scope, Session, Turn } from "../../src/core/types.js";
import { normalize } from "../../src/core/vector.js";
import type { Embedder } from "../../src/models/embedder.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";
import { InProcessRetriever } from "../../src/retrieval/in-process-retriever.js";
import type { MemoryStore } from "../../src/store/memory-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { percentile } from "../eval/stats.js";
import { flag, LOCOMO } from "./args.js";
import { benchIngest } from "./ingest.js";

const DIMS = 512;
const WORDS =
  "beagle garden pottery marathon bristol leeds nurse guitar painting camping adoption teacher vegan coffee museum beach yoga chess violin novel kitchen daughter festival conference shelter puppy recipe bakery hiking river".split(
    " ",
  );

/** Hands back prepared vectors, so only search is timed. */
export class FixedEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name = "bench-512";
  readonly dimensions = DIMS;
  next: Float32Array[] = [];
  private readonly seen = new Map<string, Float32Array>();
  /** A query asked twice (memories, then their source turns) gets the same vector, as the cache would give. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => {
      const v = this.seen.get(t) ?? this.next.shift()!;
      this.seen.set(t, v);
      return v;
    });
  }
}

/** Synthetic units: random unit vectors, sentences from WORDS, times a minute apart, from one seed. */
export interface Synthetic {
  vector(): Float32Array;
  sentence(words: number): string;
  at(i: number): string;
}

/**
 * How sentences draw their words: `flat`, uniformly from the 30 of WORDS (every query word matches
 * about a third of the scope: the hard case); `zipf`, from 10,000 made-up words with the chance
 * of the r-th word ∝ 1/r, as word counts in real text fall (the commonest matches about one
 * sentence in two, most match almost none).
 */
export type Vocabulary = "flat" | "zipf";

/** Words of the `zipf` vocabulary. */
const ZIPF_WORDS = 10_000;

/** Made-up words, distinct and stable: syllables spelled out from the word's number. */
function madeUpWord(i: number): string {
  const onsets = "b d f g k l m n p r s t v z".split(" ");
  const vowels = "a e i o u".split(" ");
  let word = "";
  // Three syllables at least (70² = 4,900), so no made-up word is a stop word or a time word.
  let n = i + 4900;
  while (n > 0) {
    word += onsets[n % onsets.length]! + vowels[Math.floor(n / onsets.length) % vowels.length]!;
    n = Math.floor(n / (onsets.length * vowels.length));
  }
  return word;
}

/** Draws ranks 0..n-1 with chance ∝ 1/(rank + 1), by binary search over the cumulative weights. */
function zipfDraw(n: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / (r + 1);
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function synthetic(seed = 42, vocabulary: Vocabulary = "flat"): Synthetic {
  const random = seededRandom(seed);
  let word = () => WORDS[Math.floor(random() * WORDS.length)]!;
  if (vocabulary === "zipf") {
    const words = Array.from({ length: ZIPF_WORDS }, (_, i) => madeUpWord(i));
    const rank = zipfDraw(ZIPF_WORDS, random);
    word = () => words[rank()]!;
  }
  return {
    vector: () => normalize(Float32Array.from({ length: DIMS }, () => random() - 0.5)),
    sentence: (n) => Array.from({ length: n }, word).join(" "),
    at: (i) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
  };
}

/**
 * Rows `start` to `start + count` of a synthetic conversation in one scope: closed sessions of 20
 * turns, the agent and "sam" taking turns, each turn a sentence of 10 words a minute apart.
 */
export function conversationRows(
  scope: Scope,
  start: number,
  count: number,
  { sentence, at }: Pick<Synthetic, "sentence" | "at">,
  strategy: string,
): { sessions: Session[]; turns: Turn[] } {
  const sessions: Session[] = [];
  const turns: Turn[] = Array.from({ length: count }, (_, j) => {
    const i = start + j;
    const sessionId = `s${Math.floor(i / 20)}`;
    if (i % 20 === 0)
      sessions.push({
        id: sessionId,
        ...scope,
        partners: ["sam"],
        at: at(i),
        status: "closed",
        strategy,
        meta: {},
        recordedAt: "",
      });
    return {
      id: newId("turn"),
      ...scope,
      sessionId,
      index: i % 20,
      speaker: i % 2 ? "sam" : "ava",
      text: `${sentence(10)}.`,
      at: at(i),
      meta: {},
    };
  });
  return { sessions, turns };
}

/**
 * Fills one scope with `size` turns (sessions of 20) and, with `withMemories`, a memory made from
 * each, every unit with a vector of the bench model, by direct store writes of 5,000 at a time.
 */
export async function fillScope(
  store: MemoryStore,
  scope: Scope,
  size: number,
  withMemories: boolean,
  { vector, sentence, at }: Synthetic,
): Promise<void> {
  for (let start = 0; start < size; start += 5000) {
    const count = Math.min(size, start + 5000) - start;
    // Turns in sessions of 20, as in a long conversation; with memory units each memory is
    // made from one of them, so recall also scores memories through their source turns.
    const { sessions, turns } = conversationRows(scope, start, count, { sentence, at }, "none");
    const memories: Memory[] = !withMemories
      ? []
      : turns.map((t, j) => ({
          id: newId("mem"),
          ...scope,
          about: (start + j) % 3 ? "sam" : "ava",
          text: `Sam ${sentence(10)}.`,
          kind: "summary",
          strategy: "bench",
          observedAt: t.at,
          recordedAt: "",
          status: "active",
          invalidAt: null,
          sessionId: t.sessionId,
          sourceTurns: [t.id],
          attributes: {},
        }));
    const embeddings = [
      ...turns.map((t) => ({
        ownerKind: "turn" as const,
        ownerId: t.id,
        model: "bench-512",
        vector: vector(),
      })),
      ...memories.map((m) => ({
        ownerKind: "memory" as const,
        ownerId: m.id,
        model: "bench-512",
        vector: vector(),
      })),
    ];
    await store.write(scope, { sessions, turns, memories, embeddings });
  }
}

export { percentile };

export async function benchRecall(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "1000,10000,100000").split(",").map(Number);
  const queries = Number(flag(args, "queries", "200"));
  const units = flag(args, "units", "memories,turns").split(",");
  const synth = synthetic(42);
  const { vector, sentence } = synth;
  console.log(
    "| unit | count | index build | p50 | p95 | RSS after |\n| --- | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const unit of units)
    for (const size of sizes) {
      const dir = mkdtempSync(join(tmpdir(), "memlane-bench-recall-"));
      const store = new SqliteStore(join(dir, "b.db"));
      const scope = { tenant: "bench", agent: "ava" };
      await fillScope(store, scope, size, unit !== "turns", synth);
      const embedder = new FixedEmbedder();
      const retriever = new InProcessRetriever(store, embedder);
      let started = performance.now();
      await Promise.all([retriever.turnIndex(scope), unit === "turns" ? null : retriever.index(scope)]);
      const build = performance.now() - started;
      const times: number[] = [];
      for (let q = 0; q < queries; q++) {
        embedder.next.push(vector());
        const query = `what did Sam say about ${sentence(3)} in March 2024?`;
        started = performance.now();
        if (unit === "turns") await retriever.searchTurns(scope, { query, k: 10 });
        else await retriever.searchMemories(scope, { query, k: 10 });
        times.push(performance.now() - started);
      }
      const rss = process.memoryUsage().rss / 1024 / 1024;
      console.log(
        `| ${unit} | ${size} | ${build.toFixed(0)} ms | ${percentile(times, 0.5).toFixed(2)} ms | ${percentile(times, 0.95).toFixed(2)} ms | ${rss.toFixed(0)} MiB |`,
      );
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  const use = new UniversalSentenceEncoder();
  await use.embed(["warm up"]);
  const embedTimes: number[] = [];
  for (let q = 0; q < 50; q++) {
    const started = performance.now();
    await use.embed([`what did Sam say about the ${sentence(3)}?`]);
    embedTimes.push(performance.now() - started);
  }
  console.log(
    `\nquery embedding with the bundled encoder (${use.name}): p50 ${percentile(embedTimes, 0.5).toFixed(1)} ms, p95 ${percentile(embedTimes, 0.95).toFixed(1)} ms (adds to each live recall; repeated queries are cached)`,
  );
  await use.close();
  // Ingest throughput, embeddings included: LoCoMo's turns stored and embedded (no summaries).
  if (args.includes("--skip-ingest")) return;
  if (!existsSync(LOCOMO)) {
    console.log(`\ningest: skipped (${LOCOMO} not found; npm run bench ingest <file> --strategy none)`);
    return;
  }
  console.log("\ningest throughput, turns with their embeddings (npm run bench ingest -- --strategy none):");
  await benchIngest([LOCOMO, "--strategy", "none"]);
}
