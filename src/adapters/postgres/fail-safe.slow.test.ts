/**
 * Postgres fails safe, on a throwaway server: a lock held elsewhere turns a write into a fast,
 * typed STORE_UNAVAILABLE instead of a hang, and `/ready` answers 503 while the database is stuck;
 * schema changes (an index built concurrently, DDL under a lock timeout with retries) leave readers
 * and writers running; a worker older than the schema refuses to start before it takes a job.
 * Skips (saying why) where no Postgres server binaries exist; CI requires them.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { testService } from "../../../test/fixtures/test-service.js";
import { isMemlaneError } from "../../core/errors.js";
import { openMemlane } from "../../engine/open-memlane.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";
import { memory, operation, scopeA, session } from "../../testing/rows.js";
import { migrate, retryOnLockTimeout, SCHEMA_VERSION } from "./migrations.js";
import { openPostgresStore } from "./open-store.js";

const skip = postgresSkipReason() ?? false;
const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

let cluster: PostgresCluster | undefined;

/** A connection of the test's own, outside memlane's pools. */
async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** How long `work` took, in ms, and what it threw (if it did). */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; error?: unknown }> {
  const t0 = performance.now();
  try {
    await work();
    return { ms: performance.now() - t0 };
  } catch (error) {
    return { ms: performance.now() - t0, error };
  }
}

/** Runs `step` over and over until `stop()` says so, recording each run's time and failures. */
function loop(step: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  const errors: unknown[] = [];
  let stopped = false;
  const done = (async () => {
    for (let i = 0; !stopped; i++) {
      const { ms, error } = await timed(() => step(i));
      times.push(ms);
      if (error) errors.push(error);
    }
  })();
  return {
    times,
    errors,
    async stop() {
      stopped = true;
      await done;
      return { max: Math.max(0, ...times), runs: times.length, errors };
    },
  };
}

describe("postgres fails safe (real server)", { skip }, () => {
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });

  it("starts every connection with statement_timeout 30 s and lock_timeout 5 s, or what is asked", async () => {
    const url = await cluster!.createDatabase();
    const store = openPostgresStore(url);
    const tuned = openPostgresStore(url, { schema: "tuned", statementTimeoutMs: 1234, lockTimeoutMs: 567 });
    try {
      const show = async (s: typeof store) =>
        (
          await s.client.query<{ s: string; l: string }>(
            "SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l",
          )
        ).rows[0];
      assert.deepEqual(await show(store), { s: "30s", l: "5s" });
      assert.deepEqual(await show(tuned), { s: "1234ms", l: "567ms" });
    } finally {
      await store.close();
      await tuned.close();
    }
  });

  it("a row or table locked elsewhere fails a write or read fast with STORE_UNAVAILABLE, not a hang", async () => {
    const url = await cluster!.createDatabase();
    // A short lock timeout keeps the test quick; the default (5 s) behaves the same, later.
    const store = openPostgresStore(url, { lockTimeoutMs: 300 });
    const holder = await connect(url);
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      // Another connection holds the scope's version row, as a stuck writer would.
      await holder.query("BEGIN");
      await holder.query("SELECT * FROM memlane.scope_versions WHERE tenant = $1 AND agent = $2 FOR UPDATE", [
        scopeA.tenant,
        scopeA.agent,
      ]);
      const write = await timed(() => store.write(scopeA, { memories: [memory(scopeA, "m1")] }));
      assert.ok(isMemlaneError(write.error), String(write.error));
      assert.equal(write.error.code, "STORE_UNAVAILABLE");
      assert.equal(write.error.details.reason, "lock-timeout");
      assert.ok(write.ms < 2000, `the write gave up after ${Math.round(write.ms)} ms`);
      // Reads of the scope go on meanwhile: a row lock holds off writers only.
      assert.equal((await store.listSessions(scopeA)).length, 1);
      await holder.query("ROLLBACK");

      // A table lock (a migration, a manual LOCK) holds off readers too: they fail as fast.
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE memlane.memories IN ACCESS EXCLUSIVE MODE");
      const read = await timed(() => store.listMemories(scopeA));
      assert.ok(isMemlaneError(read.error));
      assert.equal(read.error.details.reason, "lock-timeout");
      assert.ok(read.ms < 2000, `the read gave up after ${Math.round(read.ms)} ms`);
      await holder.query("ROLLBACK");

      // Once the lock is gone, the same write goes through: nothing was left half done.
      await store.write(scopeA, { memories: [memory(scopeA, "m1")] });
      assert.equal((await store.listMemories(scopeA)).length, 1);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.end();
      await store.close();
    }
  });

  it("a statement past statement_timeout fails STORE_UNAVAILABLE (statement-timeout)", async () => {
    const url = await cluster!.createDatabase();
    // No lock timeout: the read waits for the lock until the statement timeout ends it.
    const store = openPostgresStore(url, { statementTimeoutMs: 400, lockTimeoutMs: 0 });
    const holder = await connect(url);
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE memlane.sessions IN ACCESS EXCLUSIVE MODE");
      const read = await timed(() => store.listSessions(scopeA));
      assert.ok(isMemlaneError(read.error));
      assert.equal(read.error.code, "STORE_UNAVAILABLE");
      assert.equal(read.error.details.reason, "statement-timeout");
      assert.ok(read.ms < 2000, `gave up after ${Math.round(read.ms)} ms`);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.end();
      await store.close();
    }
  });

  it("with the default timeouts, a held lock is a 503 within about 5 s, and /ready says 503 while the database is stuck", async () => {
    const url = await cluster!.createDatabase();
    const service = await testService({
      engine: { store: url, logger: { debug() {}, warn() {}, error() {} } },
    });
    const holder = await connect(url);
    try {
      assert.equal((await service.call(null, "GET", "/ready")).status, 200);
      const opened = await service.call(service.acme, "POST", "/v1/sessions", {
        agent: "ava",
        partner: "sam",
        id: "s1",
        at: "2024-03-01T10:00",
      });
      assert.equal(opened.status, 201, await opened.clone().text());
      // The whole change-version table locked: every write and the readiness probe's read wait.
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE memlane.scope_versions IN ACCESS EXCLUSIVE MODE");
      const ready = await timed(async () => {
        const answer = await service.call(null, "GET", "/ready");
        assert.equal(answer.status, 503);
        assert.equal(((await answer.json()) as { error: { code: string } }).error.code, "STORE_UNAVAILABLE");
      });
      assert.equal(ready.error, undefined, String(ready.error));
      assert.ok(ready.ms < 3000, `/ready answered after ${Math.round(ready.ms)} ms`);
      const turn = await timed(async () => {
        const answer = await service.call(service.acme, "POST", "/v1/agents/ava/sessions/s1/turns", {
          speaker: "sam",
          text: "I moved to Bristol.",
        });
        assert.equal(answer.status, 503, await answer.clone().text());
        const body = (await answer.json()) as { error: { code: string; details?: { reason?: string } } };
        assert.equal(body.error.code, "STORE_UNAVAILABLE");
        assert.equal(body.error.details?.reason, "lock-timeout");
      });
      assert.equal(turn.error, undefined, String(turn.error));
      assert.ok(turn.ms >= 4500 && turn.ms < 9000, `the turn failed after ${Math.round(turn.ms)} ms`);
      await holder.query("ROLLBACK");
      assert.equal((await service.call(null, "GET", "/ready")).status, 200);
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.end();
      await service.close();
    }
  });

  it("builds a missing index concurrently while readers and writers go on, and finds a built one without DDL", async () => {
    const url = await cluster!.createDatabase();
    const store = openPostgresStore(url);
    const admin = await connect(url);
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      // An older store: many operations and no operations_by_time index (schema step 5 and the
      // steps after it missing; the indexes of those after are there, found without DDL).
      await admin.query(
        `INSERT INTO memlane.operations (tenant, agent, id, type, status, strategy, model, at, recorded_at)
         SELECT 't' || (g % 50), 'a' || (g % 7), 'op' || g, 'CONSOLIDATE', 'done', 'carecall', 'offline',
                to_char(g, 'FM0000000'), to_char(g, 'FM0000000')
         FROM generate_series(1, 300000) g`,
      );
      await admin.query("DROP INDEX memlane.operations_by_time");
      await admin.query("DELETE FROM memlane.schema_migrations WHERE version >= 5");
      const migrating = openPostgresStore(url);
      const readers = loop(() => store.listOperations(scopeA, { newest: true, limit: 5 }));
      const writers = loop((i) =>
        store.write(scopeA, { operations: [operation(scopeA, { type: "CONSOLIDATE", sessionId: `s${i}` })] }),
      );
      await new Promise((r) => setTimeout(r, 200));
      const built = await timed(() => migrate(migrating.client, "memlane"));
      await new Promise((r) => setTimeout(r, 200));
      const [read, wrote] = [await readers.stop(), await writers.stop()];
      await migrating.close();
      assert.equal(built.error, undefined, String(built.error));
      assert.deepEqual(read.errors, []);
      assert.deepEqual(wrote.errors, []);
      // The build took its time; no read or write waited for it.
      assert.ok(
        read.max < 1000 && wrote.max < 1000,
        `longest read ${read.max} ms, write ${wrote.max} ms, build ${built.ms} ms`,
      );
      const index = await admin.query(
        "SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass('memlane.operations_by_time')",
      );
      assert.deepEqual(index.rows, [{ indisvalid: true }]);
      const steps = await admin.query("SELECT max(version) AS v FROM memlane.schema_migrations");
      assert.equal(steps.rows[0].v, SCHEMA_VERSION);
      console.log(
        `# index over 300,000 operations built in ${Math.round(built.ms)} ms; ${read.runs} reads (longest ${Math.round(read.max)} ms), ${wrote.runs} writes (longest ${Math.round(wrote.max)} ms) meanwhile`,
      );
    } finally {
      await admin.end();
      await store.close();
    }
  });

  it("DDL waits at most lock_timeout behind a long reader, so readers never queue behind it, and retries until it goes through", async () => {
    const url = await cluster!.createDatabase();
    // Readers keep the default lock timeout (5 s); the change waits 200 ms a try (ddlLockTimeout
    // gives 1 s by default, always less than the readers').
    const store = openPostgresStore(url);
    const longReader = await connect(url);
    const ddl = await connect(url);
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      // A long reader (a dump, a report) holds its table's share lock for 2 s.
      await longReader.query("BEGIN");
      await longReader.query("SELECT count(*) FROM memlane.sessions");
      setTimeout(() => void longReader.query("COMMIT"), 2000);
      await ddl.query("SET lock_timeout = 200");
      const readers = loop(() => store.listSessions(scopeA));
      // An ALTER queued behind the reader would hold every later reader until the reader ends;
      // under the lock timeout it gives way after 200 ms each try and comes back.
      const altered = await timed(() =>
        retryOnLockTimeout("add a column", "test", () =>
          ddl.query("ALTER TABLE memlane.sessions ADD COLUMN IF NOT EXISTS note text"),
        ),
      );
      const read = await readers.stop();
      assert.equal(altered.error, undefined, String(altered.error));
      assert.ok(
        altered.ms >= 1800,
        `the change went through after ${Math.round(altered.ms)} ms, before the reader ended`,
      );
      assert.deepEqual(read.errors, []);
      assert.ok(read.max < 1000, `a reader waited ${Math.round(read.max)} ms`);
      console.log(
        `# ALTER behind a 2 s reader: through after ${Math.round(altered.ms)} ms; ${read.runs} reads meanwhile, longest ${Math.round(read.max)} ms`,
      );
    } finally {
      await longReader.end();
      await ddl.end();
      await store.close();
    }
  });

  it("a worker older than the schema refuses to start, as serve does, and takes no job", async () => {
    const url = await cluster!.createDatabase();
    const env = { ...process.env, MEMLANE_EMBEDDER: "hash", MEMLANE_COGNITION: "offline", NO_COLOR: "1" };
    // A job waiting in the queue, sent by an API replica that only enqueues.
    const mem = await openMemlane({
      store: url,
      embedder: "hash",
      queue: { postgres: url, work: false },
      logger: { debug() {}, warn() {}, error() {} },
    });
    const s = await mem.session({ agent: "ava", partner: "sam", id: "s1", at: "2024-03-01T10:00" });
    await s.turn("sam", "I moved to Bristol.");
    await s.close();
    await mem.close();
    // A newer memlane migrated the schema meanwhile.
    const admin = await connect(url);
    try {
      await admin.query("INSERT INTO memlane.schema_migrations (version) VALUES ($1)", [SCHEMA_VERSION + 1]);
      for (const command of [["worker"], ["serve", "--no-worker", "--port", "0"]]) {
        const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, ["--import", "tsx", CLI, "--db", url, ...command], {
            env,
            stdio: ["ignore", "ignore", "pipe"],
          });
          let stderr = "";
          child.stderr!.on("data", (d) => {
            stderr += d;
          });
          const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
          child.once("exit", (code) => {
            clearTimeout(killer);
            resolve({ code, stderr });
          });
        });
        assert.equal(run.code, 6, `${command[0]}: ${run.stderr}`);
        assert.match(run.stderr, /newer memlane/);
      }
      const jobs = await admin.query("SELECT state FROM memlane_jobs.job WHERE name = 'memlane-consolidate'");
      assert.deepEqual(
        jobs.rows.map((r) => r.state),
        ["created"],
        "the job still waits: no process took it",
      );
    } finally {
      await admin.end();
    }
  });
});
