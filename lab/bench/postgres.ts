/**
 * `npm run bench postgres`: recall latency with the Postgres store beside SQLite, at 10K and 100K
 * memories (and as many turns) in one scope. Three stores get the same synthetic units (as the
 * recall bench makes them: random 512-d vectors, words from a small list): SQLite (in-process
 * hybrid index), Postgres on a throwaway local server without pgvector (the same hybrid index,
 * loaded from Postgres and kept while the scope's change version in Postgres holds), and PGlite
 * with pgvector (the hybrid's dense signal from an HNSW index, k-NN in SQL). Each query is a full
 * hybrid memory recall (k 10). HNSW's recall@10 is measured against the exact scan of the same
 * vectors. Then ingest throughput with one and two workers, and the job queue's poll as retained
 * jobs grow (queue-poll.ts). Flags: --parts recall,ingest,poll (and analyze, not by default:
 * PGlite's statistics pass, pglite-analyze.ts), --sizes 10000,100000, --queries 200, --stores
 * sqlite,postgres,pglite, --retained 1000,300000, --analyze-rows 40000.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgresStore } from "../../src/adapters/postgres/open-store.js";
import type { Scope } from "../../src/core/types.js";
import { resolveRetriever } from "../../src/engine/config.js";
import { InProcessRetriever } from "../../src/retrieval/in-process-retriever.js";
import type { Retriever } from "../../src/retrieval/retriever.js";
import type { MemoryStore } from "../../src/store/memory-store.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { findPostgresBinaries, startPostgresCluster } from "../../src/testing/postgres-cluster.js";
import { flag } from "./args.js";
import { benchPgliteAnalyze } from "./pglite-analyze.js";
import { benchPostgresIngest } from "./postgres-ingest.js";
import { benchQueuePoll } from "./queue-poll.js";
import { FixedEmbedder, fillScope, percentile, synthetic } from "./recall.js";

const scope: Scope = { tenant: "bench", agent: "ava" };

interface Row {
  store: string;
  size: number;
  fill: number;
  build: number;
  times: number[];
  note?: string;
}

/** Fills `store`, then times hybrid memory recalls through the retriever the engine would pick. */
async function measure(
  name: string,
  store: MemoryStore,
  size: number,
  queries: Float32Array[],
  texts: string[],
): Promise<Row> {
  let started = performance.now();
  await fillScope(store, scope, size, true, synthetic(42));
  const fill = performance.now() - started;
  const embedder = new FixedEmbedder();
  const retriever: Retriever =
    resolveRetriever(undefined, store, embedder) ?? new InProcessRetriever(store, embedder);
  // The first query builds the scope's indexes (and the HNSW index, where there is one).
  started = performance.now();
  embedder.next.push(queries[0]!);
  await retriever.searchMemories(scope, { query: texts[0]!, k: 10 });
  const build = performance.now() - started;
  const times: number[] = [];
  for (let q = 1; q < queries.length; q++) {
    embedder.next.push(queries[q]!);
    started = performance.now();
    await retriever.searchMemories(scope, { query: texts[q]!, k: 10 });
    times.push(performance.now() - started);
  }
  return { store: name, size, fill, build, times };
}

/** HNSW's dense k-NN against the exact scan over the same stored vectors: the share of the true top 10 found. */
async function hnswRecall(spec: string, queries: Float32Array[]): Promise<number> {
  const hnsw = openPostgresStore(spec);
  const exact = openPostgresStore(spec, { vectorSearch: "exact" });
  const plan = await hnsw.explainSearch(scope, queries[0]!, "bench-512", 40);
  const uses = /embeddings_hnsw_/.test(plan) ? "the HNSW index" : "no HNSW index (an exact scan)";
  console.log(`PGlite k-NN plan uses ${uses}: ${plan.split("\n").slice(0, 3).join(" / ")}`);
  let found = 0;
  for (const q of queries) {
    const truth = new Set((await exact.searchMemories(scope, q, "bench-512", 10)).map((h) => h.id));
    found += (await hnsw.searchMemories(scope, q, "bench-512", 10)).filter((h) => truth.has(h.id)).length;
  }
  await hnsw.close();
  await exact.close();
  return found / (10 * queries.length);
}

export async function benchPostgres(args: string[]): Promise<void> {
  const parts = flag(args, "parts", "recall,ingest,poll").split(",");
  if (parts.includes("recall")) await benchRecall(args);
  // Ingest throughput with one and two workers , after recall.
  if (parts.includes("ingest")) await benchPostgresIngest(args);
  if (parts.includes("poll")) await benchQueuePoll(args);
  // Not by default: filling and indexing its scope takes minutes.
  if (parts.includes("analyze")) await benchPgliteAnalyze(args);
}

async function benchRecall(args: string[]): Promise<void> {
  const sizes = flag(args, "sizes", "10000,100000").split(",").map(Number);
  const count = Number(flag(args, "queries", "200")) + 1;
  // Queries from their own seed, the same for every store.
  const asked = synthetic(7);
  const queries = Array.from({ length: count }, () => asked.vector());
  const texts = queries.map(() => `what did Sam say about ${asked.sentence(3)} in March 2024?`);
  const stores = flag(args, "stores", "sqlite,postgres,pglite").split(",");
  const server = stores.includes("postgres") && findPostgresBinaries() ? await startPostgresCluster() : null;
  if (!server) console.log("Postgres server: skipped (no server binaries; install postgresql)\n");
  const rows: Row[] = [];
  const recalls: string[] = [];
  try {
    for (const size of sizes) {
      const dir = mkdtempSync(join(tmpdir(), "memlane-bench-pg-"));
      console.log(
        "\n| store | memories | fill | first query (index build) | p50 | p95 |\n| --- | ---: | ---: | ---: | ---: | ---: |",
      );
      const add = (row: Row) => {
        rows.push(row);
        printRow(row);
      };
      try {
        if (stores.includes("sqlite")) {
          const sqlite = new SqliteStore(join(dir, "b.db"));
          add(await measure("SQLite", sqlite, size, queries, texts));
          await sqlite.close();
        }
        if (server) {
          const postgres = openPostgresStore(await server.createDatabase(), { vectorSearch: "exact" });
          add(await measure("Postgres (server, exact)", postgres, size, queries, texts));
          await postgres.close();
        }
        if (stores.includes("pglite")) {
          const spec = `pglite:${join(dir, "pglite")}`;
          const pglite = openPostgresStore(spec);
          add(await measure("PGlite + pgvector HNSW", pglite, size, queries, texts));
          await pglite.close();
          const recall = await hnswRecall(spec, queries.slice(1, 101));
          recalls.push(`${size}: ${recall.toFixed(3)}`);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await server?.stop();
  }
  if (recalls.length)
    console.log(
      `\nHNSW recall@10 of the dense k-NN against the exact scan (100 queries): ${recalls.join(", ")}`,
    );
  const at10 = rows.filter((r) => r.size === 10_000);
  const sqlite = at10.find((r) => r.store === "SQLite");
  const postgres = at10.find((r) => r.store.startsWith("Postgres"));
  if (sqlite && postgres)
    console.log(
      `Postgres p95 at 10K: ${(percentile(postgres.times, 0.95) / percentile(sqlite.times, 0.95)).toFixed(2)}x SQLite's (goal: within 2x)`,
    );
}

function printRow(r: Row): void {
  console.log(
    `| ${r.store} | ${r.size} | ${(r.fill / 1000).toFixed(1)} s | ${r.build.toFixed(0)} ms | ${percentile(r.times, 0.5).toFixed(2)} ms | ${percentile(r.times, 0.95).toFixed(2)} ms |`,
  );
}
