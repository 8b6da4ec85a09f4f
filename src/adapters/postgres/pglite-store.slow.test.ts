/**
 * The Postgres store on PGlite (Postgres in process, with pgvector): the conformance suite minus
 * the cases that need another process, and the pgvector path — memory vectors in a `vector`
 * column, an HNSW index per model, k-NN in SQL feeding the hybrid retriever's dense signal.
 */

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { configFrom } from "../../cli/options.js";
import { InvalidInputError, StoreUnavailableError } from "../../core/errors.js";
import { seededRandom } from "../../core/memory-graph.js";
import type { Memory } from "../../core/types.js";
import { normalize } from "../../core/vector.js";
import { resolveRetriever, resolveStore } from "../../engine/config.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { openMemlane } from "../../engine/open-memlane.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { EngineCaches } from "../../retrieval/engine-caches.js";
import { PgvectorRetriever } from "../../retrieval/pgvector-retriever.js";
import { nearestMemories } from "../../strategies/kit/memory-vectors.js";
import { memory, scopeA, session } from "../../testing/rows.js";
import { runStoreConformance } from "../../testing/store-conformance.js";
import { openPostgresStore } from "./open-store.js";
import { PgliteClient } from "./pglite-client.js";
import { PgliteWorker } from "./pglite-worker.js";
import { PostgresStore } from "./postgres-store.js";
import type { SqlClient, SqlQueryable } from "./sql-client.js";
import { HnswIndexes, pgvectorAbilities } from "./vector-index.js";

// One PGlite for the suite (starting one takes seconds), a fresh schema per store; the holder
// keeps the instance open between stores.
const shared = mkdtempSync(join(tmpdir(), "memlane-pglite-suite-"));
let holder: PostgresStore | undefined;
let schemas = 0;
before(() => {
  holder = openPostgresStore(`pglite:${shared}`, { schema: "holder" });
});
after(async () => {
  await holder?.close();
  rmSync(shared, { recursive: true, force: true });
});
runStoreConformance("postgres (PGlite, pgvector)", async () => ({
  store: openPostgresStore(`pglite:${shared}`, { schema: `conformance_${++schemas}` }),
}));

const DIMS = 32;

function randomVectors(n: number, seed: number): Float32Array[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, () =>
    normalize(Float32Array.from({ length: DIMS }, () => random() - 0.5)),
  );
}

/** Memories with their vectors (model "x" unless named), as one write. */
function withVectors(memories: Memory[], vectors: Float32Array[], model = "x") {
  return {
    memories,
    embeddings: memories.map((m, i) => ({
      ownerKind: "memory" as const,
      ownerId: m.id,
      model,
      vector: vectors[i]!,
    })),
  };
}

describe("postgres store on PGlite: pgvector", () => {
  it("searches memories on an HNSW index in SQL, agreeing with the exact search, filter and all", async () => {
    const store = openPostgresStore(`pglite:${shared}`, { schema: "hnsw" });
    const exact = openPostgresStore(`pglite:${shared}`, { schema: "exact", vectorSearch: "exact" });
    try {
      assert.equal(await store.searchesInDatabase(), true);
      assert.equal(await exact.searchesInDatabase(), false);
      const vectors = randomVectors(400, 7);
      const memories = vectors.map((_, i) => memory(scopeA, `m${i}`, { about: i % 4 ? "sam" : "ava" }));
      const batch = withVectors(memories, vectors);
      await store.write(scopeA, batch);
      await exact.write(scopeA, batch);
      let found = 0;
      for (const query of randomVectors(20, 8)) {
        const approx = await store.searchMemories(scopeA, query, "x", 10, { about: "ava" });
        const truth = await exact.searchMemories(scopeA, query, "x", 10, { about: "ava" });
        assert.equal(approx.length, 10, "the iterative scan fills k despite the filter");
        const ava = new Set(memories.filter((m) => m.about === "ava").map((m) => m.id));
        assert.ok(approx.every((h) => ava.has(h.id)));
        const wanted = new Set(truth.map((h) => h.id));
        found += approx.filter((h) => wanted.has(h.id)).length;
        // Scores are cosines, as the exact search gives.
        const same = approx.find((h) => wanted.has(h.id));
        if (same) assert.ok(Math.abs(same.score - truth.find((h) => h.id === same.id)!.score) < 1e-4);
      }
      assert.ok(found / 200 >= 0.9, `HNSW recall@10 ${found / 200}`);
      const indexes = (
        await store.client.query<{ n: string }>(
          "SELECT indexname AS n FROM pg_indexes WHERE schemaname = $1",
          [store.schema],
        )
      ).rows;
      assert.equal(indexes.filter((r) => r.n.startsWith("embeddings_hnsw_")).length, 1, "one HNSW index");
    } finally {
      await store.close();
      await exact.close();
    }
  });

  it("feeds the hybrid retriever's dense signal from SQL, lexical and dense scores on each hit", async () => {
    const store = openPostgresStore(`pglite:${shared}`, { schema: "hybrid" });
    const embedder = new HashEmbedder();
    try {
      const retriever = resolveRetriever(undefined, store, embedder);
      assert.ok(retriever instanceof PgvectorRetriever, "a Postgres store gets the pgvector retriever");
      const texts = [
        "Sam adopted a beagle called Biscuit.",
        "Sam's sister teaches chemistry in Bristol.",
        "Sam runs the Leeds marathon every spring.",
      ];
      const memories = texts.map((t) => memory(scopeA, t));
      const vectors = await embedder.embed(texts);
      await store.write(scopeA, {
        memories,
        embeddings: memories.map((m, i) => ({
          ownerKind: "memory" as const,
          ownerId: m.id,
          model: embedder.name,
          vector: vectors[i]!,
        })),
      });
      const hits = await retriever.searchMemories(scopeA, { query: "Which beagle did Sam adopt?", k: 2 });
      assert.equal(hits[0]?.id, memories[0]!.id);
      assert.ok(hits[0]!.explanation.dense! > 0, "a dense score from the database");
      assert.ok(hits[0]!.explanation.bm25! > 0, "a lexical score from the index");
      // A memory written later is found once the change version moves.
      const later = memory(scopeA, "Sam adopted a second beagle, Pickle.");
      const [v] = await embedder.embed([later.text]);
      await store.write(scopeA, {
        memories: [later],
        embeddings: [{ ownerKind: "memory", ownerId: later.id, model: embedder.name, vector: v! }],
      });
      const again = await retriever.searchMemories(scopeA, { query: "Pickle the beagle", k: 1 });
      assert.equal(again[0]?.id, later.id);
    } finally {
      await store.close();
    }
  });

  it("finds a new statement's nearest memories in the database, as ranking every memory does", async () => {
    const store = openPostgresStore(`pglite:${shared}`, { schema: "nearest" });
    const embedder = new HashEmbedder();
    try {
      const retriever = resolveRetriever(undefined, store, embedder) as PgvectorRetriever;
      const texts = [
        "Sam adopted a beagle called Biscuit.",
        "Sam's sister teaches chemistry in Bristol.",
        "Sam runs the Leeds marathon every spring.",
        "Sam walks Biscuit the beagle by the river.",
        "Kim bakes sourdough on Sundays.",
      ];
      const memories = texts.map((t, i) => memory(scopeA, t, { about: i === 4 ? "kim" : "sam" }));
      await store.write(scopeA, withVectors(memories, await embedder.embed(texts), embedder.name));
      const asked = await embedder.embed(["Biscuit the beagle", "a marathon in Leeds"]);
      const ports = {
        scope: scopeA,
        store,
        caches: new EngineCaches(store),
        embedder,
        cognition: undefined as never,
      };
      const plain = {
        specificationVersion: "v1" as const,
        searchMemories: () => Promise.resolve([]),
        searchTurns: () => Promise.resolve([]),
      };
      const [inDatabase, listed] = await Promise.all([
        nearestMemories({ ...ports, retriever }, asked, 2, { about: "sam" }),
        nearestMemories({ ...ports, retriever: plain }, asked, 2, { about: "sam" }),
      ]);
      const ids = (n: typeof listed) => n.lists.map((l) => l.map((x) => x.memory.id));
      assert.deepEqual(ids(inDatabase), ids(listed));
      assert.deepEqual(ids(inDatabase)[0]!.sort(), [memories[0]!.id, memories[3]!.id].sort());
      assert.equal(inDatabase.among, 4);
    } finally {
      await store.close();
    }
  });

  it("runs the engine on pglite:memory: remember, then recall", async () => {
    const mem = await openMemlane({ store: "pglite:memory", embedder: "hash", strategy: "accumulate" });
    try {
      await mem.ingest(
        validateTranscript({
          agent: "ava",
          sessions: [
            {
              id: "s1",
              at: "2024-03-02T18:00:00Z",
              partner: "sam",
              turns: [
                { speaker: "sam", text: "I adopted a beagle called Biscuit last week." },
                { speaker: "ava", text: "Lovely! How is he settling in?" },
              ],
            },
          ],
        }),
      );
      const recall = await mem.recall({ agent: "ava", about: "sam", query: "What dog did Sam adopt?", k: 3 });
      assert.match(recall.hits[0]?.text ?? "", /Biscuit/);
    } finally {
      await mem.close();
    }
  });

  it("copies vectors stored before pgvector into the index column when it arrives", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-"));
    try {
      const spec = `pglite:${dir}`;
      const before = openPostgresStore(spec, { vectorSearch: "exact" });
      const vectors = randomVectors(30, 9);
      const memories = vectors.map((_, i) => memory(scopeA, `m${i}`));
      await before.write(scopeA, {
        memories,
        embeddings: memories.map((m, i) => ({
          ownerKind: "memory" as const,
          ownerId: m.id,
          model: "x",
          vector: vectors[i]!,
        })),
      });
      await before.close();
      const after = openPostgresStore(spec);
      assert.equal(await after.searchesInDatabase(), true);
      const [hit] = await after.searchMemories(scopeA, vectors[17]!, "x", 1);
      assert.equal(hit?.id, memories[17]!.id);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gains pgvector online: column, copy in batches and index while readers and writers go on, searches exact until ready", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-online-"));
    try {
      const spec = `pglite:${dir}`;
      // An older store: 6,000 memory vectors and no vector column.
      const before = openPostgresStore(spec, { vectorSearch: "exact" });
      const vectors = randomVectors(6000, 21);
      const memories = vectors.map((_, i) => memory(scopeA, `m${i}`));
      await before.write(scopeA, withVectors(memories, vectors));
      await before.close();

      const store = openPostgresStore(spec);
      const queries = randomVectors(5, 22);
      const expected = await Promise.all(
        queries.map(async (q) => {
          const exact = openPostgresStore(spec, { vectorSearch: "exact" });
          try {
            return (await exact.searchMemories(scopeA, q, "x", 5)).map((h) => h.id);
          } finally {
            await exact.close();
          }
        }),
      );
      const times: number[] = [];
      let wrong = 0;
      let stop = false;
      const timedRun = async (work: () => Promise<unknown>) => {
        const t0 = performance.now();
        await work();
        times.push(performance.now() - t0);
      };
      const readers = (async () => {
        for (let i = 0; !stop; i++)
          await timedRun(async () => {
            const q = i % queries.length;
            const ids = (await store.searchMemories(scopeA, queries[q]!, "x", 5)).map((h) => h.id);
            // Exact until the index serves; the index's answer agrees with it on these queries.
            if (ids.join() !== expected[q]!.join()) wrong++;
          });
      })();
      const writers = (async () => {
        for (let i = 0; !stop; i++)
          await timedRun(() => store.write(scopeA, { memories: [memory(scopeA, `new ${i}`)] }));
      })();
      const t0 = performance.now();
      // The column, the copy in batches of 2,000 and the index, as a process starting on it does.
      assert.equal(await store.vectorsReady("x", vectors[0]!.length), true);
      const readyMs = performance.now() - t0;
      await new Promise((r) => setTimeout(r, 100));
      stop = true;
      await Promise.all([readers, writers]);
      assert.match(await store.explainSearch(scopeA, queries[0]!, "x", 5), /embeddings_hnsw_/);
      const copied = await store.client.query<{ n: string }>(
        "SELECT count(*) AS n FROM embeddings WHERE owner_kind = 'memory' AND embedding IS NULL",
      );
      assert.equal(Number(copied.rows[0]?.n), 0, "every vector copied");
      assert.equal(wrong, 0, "every search answered as the exact one");
      const longest = Math.max(...times);
      console.log(
        `# pgvector online on PGlite over 6,000 vectors: ready in ${Math.round(readyMs)} ms; ${times.length} reads and writes meanwhile, longest ${Math.round(longest)} ms`,
      );
      // PGlite has one session: a batch of the copy, or the index build (most of the time here),
      // holds the others while it runs. They run between the steps; none waits for the whole change.
      assert.ok(times.length >= 4, `${times.length} reads and writes ran meanwhile`);
      assert.ok(longest < readyMs, `the longest wait (${Math.round(longest)} ms) was not the whole change`);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("starts a model's HNSW index with its first memory vectors, before any search", async () => {
    const store = openPostgresStore(`pglite:${shared}`, { schema: "hnsw_on_write" });
    try {
      const m = memory(scopeA, "m1");
      const [vector] = randomVectors(1, 3);
      await store.write(scopeA, {
        memories: [m],
        embeddings: [{ ownerKind: "memory", ownerId: m.id, model: "early", vector: vector! }],
      });
      // The write starts the build (concurrently) and does not wait for it; no search asks for it.
      const built = async () =>
        (
          await store.client.query<{ n: string }>(
            `SELECT c.relname AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             JOIN pg_namespace s ON s.oid = c.relnamespace
             WHERE s.nspname = $1 AND c.relname LIKE 'embeddings_hnsw_%' AND i.indisvalid`,
            [store.schema],
          )
        ).rows.length;
      let found = await built();
      for (let i = 0; i < 100 && found === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        found = await built();
      }
      assert.equal(found, 1);
    } finally {
      await store.close();
    }
  });

  it("keeps the planner's statistics current itself (PGlite has no autovacuum): ANALYZE after many changes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-analyze-"));
    const store = openPostgresStore(`pglite:${dir}`, { schema: "stats" });
    try {
      const tuples = async () =>
        Number(
          (
            await store.client.query<{ n: number }>(
              "SELECT reltuples::float8 AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'stats' AND c.relname = 'memories'",
            )
          ).rows[0]?.n,
        );
      await store.write(scopeA, { memories: [memory(scopeA, "first")] });
      const rows = Array.from({ length: 600 }, (_, i) => memory(scopeA, `m${i}`));
      await store.write(scopeA, { memories: rows });
      // ANALYZE runs behind the statements already queued; wait for it a little.
      let seen = await tuples();
      for (let i = 0; i < 50 && seen < 600; i++) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await tuples();
      }
      assert.equal(seen, 601, "the planner knows the table's size");
      // A small sample (statistics target 10, not the server's 100), so no pass holds the process long.
      const bounds = (
        await store.client.query<{ n: number }>(
          "SELECT array_length(histogram_bounds::text::text[], 1) AS n FROM pg_stats WHERE schemaname = 'stats' AND tablename = 'memories' AND attname = 'id'",
        )
      ).rows[0]?.n;
      assert.ok(bounds !== undefined && bounds <= 11, `histogram of ${bounds} bounds`);
      // The session's own target is back to the default afterwards.
      const target = (
        await store.client.query<{ t: string }>("SELECT current_setting('default_statistics_target') AS t")
      ).rows[0]?.t;
      assert.equal(target, "100");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives the event loop a turn while statements queue back to back", async () => {
    const client = new PgliteClient(":memory:", "public");
    try {
      await client.query("SELECT 1");
      let doneWhenTimerRan = -1;
      let done = 0;
      setTimeout(() => {
        doneWhenTimerRan = done;
      }, 0);
      // About 2 ms each: 150 of them hold the loop for about 300 ms when nothing yields.
      await Promise.all(
        Array.from({ length: 150 }, () =>
          client.query("SELECT count(*) FROM generate_series(1, 40000)").then(() => done++),
        ),
      );
      assert.ok(
        doneWhenTimerRan >= 0 && doneWhenTimerRan < 150,
        `the timer ran after ${doneWhenTimerRan} statements`,
      );
    } finally {
      await client.close();
    }
  });

  it("runs statements in a thread of its own: timers keep running while one runs", async () => {
    const client = new PgliteClient(":memory:", "public");
    try {
      await client.query("SELECT 1");
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      // In the serving thread, this statement held it for the whole 300 ms: no tick at all.
      await client.query("SELECT pg_sleep(0.3)");
      clearInterval(timer);
      assert.ok(ticks >= 5, `${ticks} ticks of a 10 ms timer during a 300 ms statement`);
    } finally {
      await client.close();
    }
  });

  it("keeps Postgres's error codes across the thread, and rolls a failed transaction back", async () => {
    const client = new PgliteClient(":memory:", "public");
    try {
      await client.exec("CREATE TABLE t (id int PRIMARY KEY)");
      await assert.rejects(
        client.transaction(async (tx) => {
          await tx.query("INSERT INTO t VALUES (1)");
          await tx.query("INSERT INTO t VALUES (1)");
        }),
        (e: Error & { code?: string }) => e.code === "23505",
      );
      assert.equal((await client.query("SELECT count(*)::int AS n FROM t")).rows[0]?.n, 0);
      await client.transaction((tx) => tx.query("INSERT INTO t VALUES (2)"));
      assert.equal((await client.query("SELECT count(*)::int AS n FROM t")).rows[0]?.n, 1);
    } finally {
      await client.close();
    }
  });

  it("fails the statements of a thread that ended before it was ready, and refuses a statement after a transaction", async () => {
    const dead = new PgliteWorker(null, "pglite:test");
    await (dead as unknown as { worker: Worker }).worker.terminate();
    await assert.rejects(dead.query("SELECT 1"), StoreUnavailableError);
    const client = new PgliteClient(":memory:", "public");
    try {
      let kept: SqlQueryable | undefined;
      await client.transaction(async (tx) => {
        kept = tx;
      });
      await assert.rejects(kept!.query("SELECT 1"), /transaction has ended/);
      assert.equal((await client.query("SELECT 1 AS n")).rows[0]?.n, 1);
    } finally {
      await client.close();
    }
  });

  it("does not keep an idle process alive, nor let it end while a statement waits", () => {
    const client = fileURLToPath(new URL("./pglite-client.ts", import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-idle-"));
    // Never closed: a process whose work is done ends anyway, after its last answer arrived.
    writeFileSync(
      join(dir, "idle.mjs"),
      `const { PgliteClient } = await import(${JSON.stringify(client)});
       const c = new PgliteClient(":memory:", "public");
       const { rows } = await c.query("SELECT 40 + 2 AS n");
       // A parameter that cannot cross the thread is refused and leaves nothing waiting.
       await c.query("SELECT $1::text", [() => 1]).then(() => console.log("sent?"), () => {});
       console.log(rows[0].n);`,
    );
    try {
      const r = spawnSync(process.execPath, ["--import", "tsx", join(dir, "idle.mjs")], {
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout.trim(), "42");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a process starting on a current schema only reads it: no DDL, no lock", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-start-"));
    const statements: string[] = [];
    // Every statement the second store sends, inside transactions too.
    const recording = (inner: SqlClient): SqlClient => ({
      label: inner.label,
      query: (sql, params) => {
        statements.push(sql);
        return inner.query(sql, params);
      },
      exec: (sql) => {
        statements.push(sql);
        return inner.exec(sql);
      },
      transaction: (work) =>
        inner.transaction((tx) =>
          work({
            query: (sql, params) => {
              statements.push(sql);
              return tx.query(sql, params);
            },
          } satisfies SqlQueryable),
        ),
      session: (work, settings) =>
        inner.session(
          (c) =>
            work({
              query: (sql, params) => {
                statements.push(sql);
                return c.query(sql, params);
              },
            } satisfies SqlQueryable),
          settings,
        ),
      close: () => inner.close(),
    });
    try {
      const first = openPostgresStore(`pglite:${dir}`);
      await first.write(scopeA, { sessions: [session(scopeA, "s1")] });
      const second = new PostgresStore(recording(new PgliteClient(dir, "memlane")));
      assert.equal((await second.listSessions(scopeA)).length, 1);
      assert.equal(await second.searchesInDatabase(), true);
      const changing = statements.filter((q) => /\b(CREATE|ALTER|DROP|INSERT|UPDATE|advisory)/i.test(q));
      assert.deepEqual(changing, [], "the start only read the schema");
      await second.close();
      await first.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads pgvector's version: HNSW from 0.5, iterative scans from 0.8", () => {
    assert.equal(pgvectorAbilities("0.4.4"), null, "no HNSW: exact search");
    assert.deepEqual(pgvectorAbilities("0.6.0"), { version: "0.6.0", iterativeScan: false });
    assert.deepEqual(pgvectorAbilities("0.7.4"), { version: "0.7.4", iterativeScan: false });
    assert.deepEqual(pgvectorAbilities("0.8.0"), { version: "0.8.0", iterativeScan: true });
    assert.deepEqual(pgvectorAbilities("0.10.1"), { version: "0.10.1", iterativeScan: true });
    assert.deepEqual(pgvectorAbilities("1.0.0"), { version: "1.0.0", iterativeScan: true });
  });

  it("without iterative scans (pgvector < 0.8) a narrow filter still gets the exact k nearest", async () => {
    const store = openPostgresStore(`pglite:${shared}`, { schema: "old_pgvector" });
    const exact = openPostgresStore(`pglite:${shared}`, {
      schema: "old_pgvector_exact",
      vectorSearch: "exact",
    });
    try {
      assert.equal(await store.searchesInDatabase(), true);
      const vectors = randomVectors(2000, 11);
      // One memory in 100 is about ava: a walk of 1000 candidates finds about 10 of them.
      const memories = vectors.map((_, i) => memory(scopeA, `m${i}`, { about: i % 100 ? "sam" : "ava" }));
      const batch = withVectors(memories, vectors);
      await store.write(scopeA, batch);
      await exact.write(scopeA, batch);
      const hnsw = new HnswIndexes(store.client);
      for (const query of randomVectors(5, 12)) {
        const old = await hnsw.nearest(scopeA, query, "x", 15, { about: "ava" }, false);
        const truth = await exact.searchMemories(scopeA, query, "x", 15, { about: "ava" });
        assert.deepEqual(
          old.map((h) => h.id),
          truth.map((h) => h.id),
        );
      }
      // The plan of the old path never names the setting pgvector < 0.8 lacks.
      assert.doesNotMatch(await hnsw.plan(scopeA, vectors[0]!, "x", 5, false), /iterative/);
    } finally {
      await store.close();
      await exact.close();
    }
  });

  it("exact search can be forced: config vectorSearch, --vector-search, MEMLANE_VECTOR_SEARCH", async () => {
    const config = configFrom({ db: "pglite:memory" }, { MEMLANE_VECTOR_SEARCH: "exact" });
    assert.equal(config.vectorSearch, "exact");
    assert.equal(configFrom({ db: "pglite:memory", vectorSearch: "auto" }, {}).vectorSearch, "auto");
    const forced = (await resolveStore("pglite:memory", config)) as PostgresStore;
    const auto = (await resolveStore("pglite:memory")) as PostgresStore;
    try {
      assert.equal(await forced.searchesInDatabase(), false);
      assert.equal(await auto.searchesInDatabase(), true);
      await assert.rejects(
        resolveStore("pglite:memory", { vectorSearch: "fast" as "auto" }),
        (e: unknown) => e instanceof InvalidInputError && /auto.*exact/.test((e as Error).message),
      );
    } finally {
      await forced.close();
      await auto.close();
    }
  });

  it("shares one PGlite between stores of one directory in a process, closed with the last", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-pglite-"));
    try {
      const a = openPostgresStore(`pglite:${dir}`);
      const b = openPostgresStore(`pglite:${dir}`);
      await a.write(scopeA, { sessions: [session(scopeA, "s1")] });
      assert.ok(await b.getSession(scopeA, "s1"));
      await a.close();
      await b.write(scopeA, { sessions: [session(scopeA, "s2")] });
      await b.close();
      const again = openPostgresStore(`pglite:${dir}`);
      assert.equal((await again.listSessions(scopeA)).length, 2);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
