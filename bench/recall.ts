/**
 * Recall latency at scale: 1K, 10K and 100K memories in one scope. Memories get synthetic text
 * (random words from a 3000-word made-up vocabulary, for BM25) and random unit vectors (embedding 100K
 * sentences here would take most of an hour), so the figures are of search itself; the bundled
 * encoder's time to embed one query is measured separately and adds to every live recall.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newId } from "../src/core/ids.js";
import { seededRandom } from "../src/core/memory-graph.js";
import type { Memory } from "../src/core/types.js";
import { normalize } from "../src/core/vector.js";
import type { Embedder } from "../src/models/embedder.js";
import { UniversalSentenceEncoder } from "../src/models/use-embedder.js";
import { Retriever } from "../src/retrieval/retriever.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { flag } from "./args.js";

const DIMS = 512;
const WORDS =
  "beagle garden pottery marathon bristol leeds nurse guitar painting camping adoption teacher vegan coffee museum beach yoga chess violin novel kitchen daughter festival conference shelter puppy recipe bakery hiking river".split(
    " ",
  );

/** Hands back prepared vectors, so only search is timed. */
class FixedEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name = "bench-512";
  readonly dimensions = DIMS;
  next: Float32Array[] = [];
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map(() => this.next.shift()!);
  }
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

export async function benchRecall(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "1000,10000,100000").split(",").map(Number);
  const queries = Number(flag(args, "queries", "200"));
  const random = seededRandom(42);
  const vector = () => normalize(Float32Array.from({ length: DIMS }, () => random() - 0.5));
  const sentence = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ");
  console.log("| memories | index build | p50 | p95 | RSS after |\n| ---: | ---: | ---: | ---: | ---: |");
  for (const size of sizes) {
    const dir = mkdtempSync(join(tmpdir(), "memlane-bench-recall-"));
    const store = new SqliteStore(join(dir, "b.db"));
    const scope = { tenant: "bench", agent: "ava" };
    for (let start = 0; start < size; start += 5000) {
      const batch: Memory[] = [];
      for (let i = start; i < Math.min(size, start + 5000); i++)
        batch.push({
          id: newId("mem"),
          ...scope,
          about: i % 3 ? "sam" : "ava",
          text: `Sam ${sentence(10)}.`,
          kind: "summary",
          strategy: "bench",
          observedAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
          recordedAt: "",
          status: "active",
          invalidAt: null,
          sessionId: null,
          sourceTurns: [],
          attributes: {},
        });
      await store.write(scope, {
        memories: batch,
        embeddings: batch.map((m) => ({
          ownerKind: "memory" as const,
          ownerId: m.id,
          model: "bench-512",
          vector: vector(),
        })),
      });
    }
    const embedder = new FixedEmbedder();
    const retriever = new Retriever(store, embedder);
    let started = performance.now();
    await retriever.index(scope);
    const build = performance.now() - started;
    const times: number[] = [];
    for (let q = 0; q < queries; q++) {
      embedder.next.push(vector());
      started = performance.now();
      await retriever.searchMemories(scope, { query: `what about ${sentence(3)}?`, k: 10 });
      times.push(performance.now() - started);
    }
    const rss = process.memoryUsage().rss / 1024 / 1024;
    console.log(
      `| ${size} | ${build.toFixed(0)} ms | ${percentile(times, 0.5).toFixed(2)} ms | ${percentile(times, 0.95).toFixed(2)} ms | ${rss.toFixed(0)} MiB |`,
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
}
