/**
 * `npm run bench postgres -- --parts analyze`: how long PGlite's statistics pass takes. PGlite has
 * no autovacuum, so its client runs ANALYZE itself after a tenth of the rows changed
 * (adapters/postgres/pglite-client.ts). PGlite runs each statement to its end in its own worker
 * thread (pglite-worker.ts), so the event-loop delay below is what the serving thread waits, not
 * the pass itself. A scope of N memories, turns and 512-d embeddings (with the HNSW index a live store has)
 * is filled in SQL, then the pass is timed twice against plain ANALYZE of every table at the
 * server's default statistics target (each through the client, which gives the loop a turn
 * between statements): the pass's length, and the longest event-loop delay while it runs
 * (perf_hooks, 5 ms resolution). Flags: --analyze-rows 40000 (ANALYZE's sample stops
 * growing at 30,000 rows, so larger tables cost little more).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { migrate } from "../../src/adapters/postgres/migrations.js";
import { sqlClientFor } from "../../src/adapters/postgres/open-store.js";
import { enableVectors } from "../../src/adapters/postgres/vector-index.js";
import { flag } from "./args.js";

const DIMS = 512;

/** Rows `from` to `to` of one scope: sessions of 20 turns, a memory and a vector per turn. */
function fillStatements(from: number, to: number): string[] {
  const rows = `generate_series(${from}, ${to - 1}) g`;
  const at = "'2024-01-01T00:00:00Z'";
  return [
    `INSERT INTO sessions (tenant, agent, id, partners, at, status, strategy, meta, recorded_at)
     SELECT 't', 'a', 's' || (g / 20), '["sam"]', ${at}, 'consolidated', 'carecall', '{}', ${at} FROM ${rows} WHERE g % 20 = 0`,
    `INSERT INTO turns (tenant, agent, id, session_id, idx, speaker, text, at, meta)
     SELECT 't', 'a', 's' || (g / 20) || ':' || (g % 20), 's' || (g / 20), g % 20, 'sam',
       'we went to the beach with the kids and it was lovely, day ' || g, ${at}, '{}' FROM ${rows}`,
    `INSERT INTO memories (tenant, agent, id, about, text, kind, strategy, observed_at, recorded_at, status,
       invalid_at, session_id, source_turns, attributes)
     SELECT 't', 'a', 'm' || g, 'sam', 'Sam went to the beach with the kids on day ' || g, 'summary', 'carecall',
       ${at}, ${at}, 'active', NULL, 's' || (g / 20), '["s' || (g / 20) || ':' || (g % 20) || '"]', '{}' FROM ${rows}`,
    `INSERT INTO embeddings (tenant, agent, owner_kind, owner_id, model, dims, vector, embedding)
     SELECT 't', 'a', 'memory', 'm' || g, 'bench-512', ${DIMS}, '\\x00'::bytea,
       (SELECT array_agg(random()::real) FROM generate_series(1, ${DIMS}) WHERE g >= 0)::vector FROM ${rows}`,
  ];
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 30));

/** The pass's length and the longest event-loop delay while it ran, in ms. */
async function timed(pass: () => Promise<void>): Promise<[number, number]> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  await pause(); // the monitor's timer starts on a turn of the loop
  const started = performance.now();
  await pass();
  const took = performance.now() - started;
  await pause();
  delay.disable();
  return [took, delay.max / 1e6];
}

export async function benchPgliteAnalyze(args: string[]): Promise<void> {
  const rows = Number(flag(args, "analyze-rows", "40000"));
  const dir = mkdtempSync(join(tmpdir(), "memlane-bench-analyze-"));
  const client = sqlClientFor(`pglite:${dir}`, "memlane");
  try {
    await migrate(client, "memlane");
    await enableVectors(client);
    let started = performance.now();
    for (let i = 0; i < rows; i += 10_000)
      for (const sql of fillStatements(i, Math.min(rows, i + 10_000))) await client.query(sql);
    await client.query(
      `CREATE INDEX IF NOT EXISTS embeddings_hnsw_bench ON embeddings USING hnsw ((embedding::vector(${DIMS})) vector_cosine_ops)
       WHERE owner_kind = 'memory' AND model = 'bench-512' AND dims = ${DIMS}`,
    );
    console.log(
      `\n## PGlite statistics pass (${rows.toLocaleString("en")} memories, turns and vectors; filled and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    const tables = (
      await client.query<{ name: string }>(
        `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
      )
    ).rows.map((r) => r.name);
    // The client's own pass is private: it is what a write past the threshold starts.
    const pass = (client as unknown as { analyze(): Promise<void> }).analyze.bind(client);
    console.log("| run | pass | longest event-loop delay |\n| --- | ---: | ---: |");
    for (let round = 1; round <= 2; round++) {
      started = performance.now();
      const [plainTook, plainDelay] = await timed(async () => {
        for (const table of tables) await client.query(`ANALYZE ${table}`);
      });
      console.log(
        `| ${round}: ANALYZE per table, default target | ${plainTook.toFixed(0)} ms | ${plainDelay.toFixed(0)} ms |`,
      );
      const [took, delay] = await timed(pass);
      console.log(`| ${round}: the client's pass | ${took.toFixed(0)} ms | ${delay.toFixed(0)} ms |`);
    }
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
