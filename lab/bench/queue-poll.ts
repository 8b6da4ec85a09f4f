/**
 * The Postgres job queue's poll as retention grows (part `poll` of `npm run bench postgres`):
 * every process polls every second (the jobs it shows, and in a worker the sweep for jobs whose
 * worker is gone), so a poll that reads every retained job costs each process more the longer the
 * queue has run. The table is filled as a queue that has run that many jobs keeps them (finished
 * jobs stay in pg-boss's table for 12 hours before they are archived), with 20 unfinished ones
 * waiting; a worker queue then polls 30 times.
 */
import pg from "pg";
import { CONSOLIDATE_QUEUE, PostgresJobQueue } from "../../src/adapters/postgres/postgres-queue.js";
import { silentLogger } from "../../src/engine/logger.js";
import { findPostgresBinaries, startPostgresCluster } from "../../src/testing/postgres-cluster.js";
import { flag } from "./args.js";
import { percentile } from "./recall.js";

const POLLS = 30;

export async function benchQueuePoll(args: string[]): Promise<void> {
  const sizes = flag(args, "retained", "1000,300000").split(",").map(Number);
  if (!findPostgresBinaries()) {
    console.log("\nQueue poll: skipped (no Postgres server binaries)");
    return;
  }
  const server = await startPostgresCluster();
  console.log(
    `\n## Queue poll (a worker's, ${POLLS} polls) by retained jobs\n\n| retained jobs | fill | poll p50 | poll p95 |\n| ---: | ---: | ---: | ---: |`,
  );
  try {
    for (const retained of sizes) {
      const url = await server.createDatabase();
      const queue = new PostgresJobQueue({ url, logger: silentLogger, pollSeconds: 3600 });
      queue.process(
        async () => true,
        () => undefined,
      );
      await queue.start();
      const started = performance.now();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const row = (state: string, when: string) =>
        `SELECT gen_random_uuid(), $1, jsonb_build_object('tenant', 't' || (i % 50), 'agent', 'a' || (i % 500), 'sessionId', 's' || i),
           '${state}', now() - i * interval '1 second', ${when}`;
      await client.query(
        `INSERT INTO memlane_jobs.job (id, name, data, state, created_on, completed_on)
         ${row("completed", "now() - i * interval '1 second' + interval '1 second'")} FROM generate_series(1, $2) i`,
        [CONSOLIDATE_QUEUE, retained],
      );
      // Unfinished, and not due for a day: listed by every poll, never run here.
      await client.query(
        `INSERT INTO memlane_jobs.job (id, name, data, state, created_on, completed_on, start_after)
         ${row("created", "NULL")}, now() + interval '1 day' FROM generate_series(1, 20) i`,
        [CONSOLIDATE_QUEUE],
      );
      await client.query("ANALYZE memlane_jobs.job");
      await client.end();
      const fill = performance.now() - started;
      const times: number[] = [];
      for (let i = 0; i < POLLS; i++) {
        const t0 = performance.now();
        await queue.refreshJobs();
        times.push(performance.now() - t0);
      }
      console.log(
        `| ${retained.toLocaleString("en")} | ${(fill / 1000).toFixed(1)} s | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.95).toFixed(1)} ms |`,
      );
      await queue.close();
    }
  } finally {
    await server.stop();
  }
}
