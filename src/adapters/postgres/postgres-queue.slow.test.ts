/**
 * The Postgres job queue on a throwaway cluster: an API engine that only enqueues and worker
 * engines that run the jobs, over one store; a job run twice (two workers racing, a worker that
 * died after its commit, a job left active by a killed worker) writes its memories once; failed
 * consolidations are retried with backoff and stay visible. The store is a SQLite file here so
 * this runs without the Postgres store; the queue does not care which store the engine has.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import PgBoss from "pg-boss";
import { demoTranscript } from "../../../test/fixtures/engine.js";
import { InvalidInputError, isMemlaneError } from "../../core/errors.js";
import { type MemlaneConfig, resolveQueue } from "../../engine/config.js";
import type { JobHandler } from "../../engine/consolidation/job-queue.js";
import { silentLogger } from "../../engine/logger.js";
import type { Memlane } from "../../engine/memlane.js";
import { openMemlane } from "../../engine/open-memlane.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import {
  checkPgBossPackage,
  checkPgBossSchema,
  compareVersions,
  installedPgBoss,
  JOB_COLUMNS,
  PgBossTables,
  type Statement,
  SUPPORTED_PGBOSS,
  UnsupportedPgBossError,
} from "./pg-boss-tables.js";
import { CONSOLIDATE_QUEUE, PostgresJobQueue, type PostgresQueueOptions } from "./postgres-queue.js";

const skip = postgresSkipReason() ?? false;
const fast: Partial<PostgresQueueOptions> = {
  pollSeconds: 0.2,
  retryDelaySeconds: 1,
  retryLimit: 2,
  jobTimeoutSeconds: 3,
  maintenanceSeconds: 1,
  logger: silentLogger,
};

describe("Postgres job queue", { skip }, () => {
  let cluster: PostgresCluster;
  let dir: string;
  const open: Memlane[] = [];

  before(async () => {
    cluster = await startPostgresCluster();
    dir = mkdtempSync(join(tmpdir(), "memlane-pgq-"));
  });
  after(async () => {
    for (const m of open) await m.close().catch(() => undefined);
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** An engine over the test's store file with a Postgres queue. */
  async function engine(
    db: string,
    url: string,
    queue: Partial<PostgresQueueOptions>,
    config: MemlaneConfig = {},
  ): Promise<{ mem: Memlane; queue: PostgresJobQueue }> {
    const q = new PostgresJobQueue({ url, ...fast, ...queue });
    const mem = await openMemlane({
      store: join(dir, db),
      embedder: "hash",
      cognition: "offline",
      strategy: "carecall",
      tenant: "acme",
      logger: silentLogger,
      queue: q,
      ...config,
    });
    open.push(mem);
    return { mem, queue: q };
  }

  async function talk(mem: Memlane, id: string) {
    const s = await mem.session({ agent: "ava", partner: "sam", id, at: "2024-03-02T18:00" });
    await s.turn("sam", "I adopted a beagle called Biscuit last week.");
    await s.turn("ava", "Lovely! How is Biscuit settling in?");
    await s.turn("sam", "He chews everything, but I work as a nurse in Leeds so my sister walks him.");
    return s;
  }

  const texts = async (mem: Memlane, sessionId: string) =>
    (await mem.memories("ava", { sessionId, status: "any" })).map((m) => m.text).sort();

  it('is chosen by config: a postgres:// URL or options; "postgres" needs a postgres:// store', async () => {
    const url = await cluster.createDatabase();
    await assert.rejects(
      openMemlane({ store: ":memory:", embedder: "hash", queue: "postgres" }),
      (e: InvalidInputError) => e instanceof InvalidInputError && e.details.field === "queue",
    );
    await assert.rejects(
      openMemlane({ store: ":memory:", embedder: "hash", queue: { postgres: "mysql://x" } }),
      InvalidInputError,
    );
    const queue = await resolveQueue({ store: ":memory:", queue: { postgres: url, work: false } });
    assert.ok(queue instanceof PostgresJobQueue);
    assert.equal(queue.works, false);
    const mem = await openMemlane({
      store: ":memory:",
      embedder: "hash",
      queue: url as `postgres://${string}`,
      logger: silentLogger,
    });
    const s = await talk(mem, "s1");
    assert.equal((await (await s.close()).done)?.state, "done");
    await mem.close();
  });

  it("the queue's own connections carry the statement and lock timeouts the store's do", async () => {
    const url = await cluster.createDatabase();
    const q = new PostgresJobQueue({ url, ...fast, work: false });
    try {
      await q.start();
      const db = (
        q as unknown as { boss: { getDb(): { executeSql(sql: string): Promise<{ rows: unknown[] }> } } }
      ).boss.getDb();
      const { rows } = await db.executeSql(
        "SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l",
      );
      assert.deepEqual(rows[0], { s: "30s", l: "5s" });
    } finally {
      await q.close();
    }
  });

  it("processes starting together on a fresh database all start (queue setup does not deadlock)", async () => {
    // Without serialized setup, four queues racing pg-boss's createQueue deadlocked (40P01) in
    // about one round in three; eight rounds make a regression visible.
    for (let round = 0; round < 8; round++) {
      const url = await cluster.createDatabase();
      const queues = Array.from({ length: 4 }, () => new PostgresJobQueue({ url, ...fast, work: false }));
      const started = await Promise.allSettled(queues.map((q) => q.start()));
      await Promise.all(queues.map((q) => q.close()));
      assert.deepEqual(
        started.map((r) => (r.status === "rejected" ? String(r.reason) : "started")),
        queues.map(() => "started"),
        `round ${round}`,
      );
    }
  });

  it("an API engine only enqueues; a worker engine runs the job; done and jobs() follow it", async () => {
    const url = await cluster.createDatabase();
    const api = await engine("a.db", url, { work: false });
    const s = await talk(api.mem, "s1");
    const { job, done } = await s.close();
    assert.equal(job?.state, "queued");
    await api.mem.idle(); // the send is stored; nothing runs here
    await new Promise((r) => setTimeout(r, 600));
    assert.equal((await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status, "closed");
    assert.equal((await api.mem.memories("ava", {})).length, 0, "no worker yet: nothing consolidated");

    const worker = await engine("a.db", url, { work: true });
    const runs: string[] = [];
    worker.queue.onRun((r) => runs.push(`${r.job.sessionId}:${r.job.state}:${r.attempt}`));
    const finished = await done;
    assert.equal(finished?.state, "done");
    assert.equal(finished?.id, job?.id);
    assert.deepEqual(runs, ["s1:done:1"]);
    assert.equal(
      (await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status,
      "consolidated",
    );
    assert.ok((await texts(api.mem, "s1")).length > 0);
    const listed = api.mem.jobs().find((j) => j?.id === job?.id);
    assert.equal(listed?.state, "done");
    assert.ok(listed?.finishedAt);
    await worker.mem.close();
    await api.mem.close();
  });

  it("a session consolidated twice (two jobs, two workers racing) writes its memories once", async () => {
    const url = await cluster.createDatabase();
    // The reference: one process, the in-process queue.
    const alone = await openMemlane({
      store: join(dir, "ref.db"),
      embedder: "hash",
      cognition: "offline",
      strategy: "carecall",
      tenant: "acme",
    });
    open.push(alone);
    await (await (await talk(alone, "s1")).close()).done;
    const reference = await texts(alone, "s1");

    const api = await engine("b.db", url, { work: false });
    const s = await talk(api.mem, "s1");
    const first = await s.close();
    // The same session queued again, as a retry or a second replica would.
    const second = await api.queue.enqueue({
      kind: "consolidate",
      tenant: "acme",
      agent: "ava",
      sessionId: "s1",
    });
    const w1 = await engine("b.db", url, { work: true });
    const w2 = await engine("b.db", url, { work: true });
    const ran: string[] = [];
    for (const w of [w1, w2]) w.queue.onRun((r) => ran.push(r.job.state));
    const [a, b] = await Promise.all([first.done, second.done]);
    assert.deepEqual([a?.state, b?.state], ["done", "done"]);
    assert.equal(ran.length, 2);
    assert.deepEqual(await texts(api.mem, "s1"), reference);
    assert.equal((await api.mem.failures("ava")).length, 0);
    for (const m of [w1.mem, w2.mem, api.mem]) await m.close();
  });

  it("one agent's sessions, closed back to back, are consolidated one at a time and in order by two workers", async () => {
    const url = await cluster.createDatabase();
    const demo = JSON.parse(
      readFileSync(new URL("../../../data/demo-conversation.json", import.meta.url), "utf8"),
    ) as {
      sessions: { id: string; at: string; partners: string[]; turns: { speaker: string; text: string }[] }[];
    };
    const play = async (mem: Memlane) => {
      const closing = [];
      for (const d of demo.sessions) {
        const s = await mem.session({ agent: "ava", partners: d.partners, id: d.id, at: d.at });
        for (const t of d.turns) await s.turn(t.speaker, t.text);
        closing.push((await s.close()).done);
      }
      return Promise.all(closing);
    };
    const everything = async (mem: Memlane) =>
      (await mem.memories("ava", { status: "any" }))
        .map((m) => `${m.sessionId} ${m.status} ${m.text}`)
        .sort();
    const alone = await openMemlane({
      store: join(dir, "order-ref.db"),
      embedder: "hash",
      cognition: "offline",
      tenant: "acme",
    });
    open.push(alone);
    await play(alone);
    const reference = await everything(alone);
    assert.ok(
      reference.some((m) => m.includes("superseded")),
      "the demo supersedes memories: order matters",
    );

    const api = await engine("order.db", url, { work: false });
    const workers = [
      await engine("order.db", url, { work: true }),
      await engine("order.db", url, { work: true }),
    ];
    const order: string[] = [];
    for (const w of workers) w.queue.onRun((r) => order.push(r.job.sessionId));
    const jobs = await play(api.mem);
    assert.deepEqual(
      jobs.map((j) => j?.state),
      ["done", "done", "done", "done"],
    );
    assert.deepEqual(
      order,
      demo.sessions.map((d) => d.id),
    );
    assert.deepEqual(await everything(api.mem), reference);
    for (const m of [...workers.map((w) => w.mem), api.mem]) await m.close();
  });

  it("a worker that dies after its commit: the retried job writes nothing more", async () => {
    const url = await cluster.createDatabase();
    const api = await engine("c.db", url, { work: false });
    const s = await talk(api.mem, "s1");
    const { done } = await s.close();
    // The first try commits the consolidation, then its worker dies before telling pg-boss.
    class DiesAfterCommit extends PostgresJobQueue {
      tries = 0;
      override process(handler: JobHandler, onChange: Parameters<PostgresJobQueue["process"]>[1]): void {
        super.process(async (request) => {
          const ok = await handler(request);
          if (++this.tries === 1) throw new Error("worker died after its commit");
          return ok;
        }, onChange);
      }
    }
    const q = new DiesAfterCommit({ url, ...fast });
    const worker = await openMemlane({
      store: join(dir, "c.db"),
      embedder: "hash",
      cognition: "offline",
      strategy: "carecall",
      tenant: "acme",
      logger: silentLogger,
      queue: q,
    });
    open.push(worker);
    const attempts: number[] = [];
    q.onRun((r) => attempts.push(r.attempt));
    const finished = await done;
    assert.equal(finished?.state, "done");
    assert.deepEqual(attempts, [1, 2], "tried again after the failure");
    const once = await texts(api.mem, "s1");
    assert.ok(once.length > 0);
    const distinct = new Set(once);
    assert.equal(distinct.size, once.length, "no memory written twice");
    assert.equal((await api.mem.failures("ava")).length, 0);
    await worker.close();
    await api.mem.close();
  });

  it("a job left active by a killed worker is run again after its timeout", async () => {
    const url = await cluster.createDatabase();
    const api = await engine("d.db", url, { work: false });
    const s = await talk(api.mem, "s1");
    const { job, done } = await s.close();
    // A worker takes the job and is killed: the row is active and nobody will finish it.
    const killed = new PgBoss({
      connectionString: url,
      schema: "memlane_jobs",
      supervise: false,
      schedule: false,
    });
    await killed.start();
    const [taken] = await killed.fetch(CONSOLIDATE_QUEUE);
    assert.equal(taken?.id, job?.id);
    await killed.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
    const t0 = Date.now();
    const worker = await engine("d.db", url, { work: true });
    const finished = await done;
    assert.equal(finished?.state, "done");
    assert.ok(Date.now() - t0 >= 1500, "not before the job timed out");
    assert.ok((await texts(api.mem, "s1")).length > 0);
    await worker.mem.close();
    await api.mem.close();
  });

  it("a failed consolidation is retried with backoff as the worker says (not the enqueuer), then stays failed and visible", async () => {
    const url = await cluster.createDatabase();
    // The API process would allow 5 retries and a 900 s timeout; the worker that runs the job
    // allows 1 retry and 7 s, and its settings are the ones that hold.
    const api = await engine("e.db", url, { work: false, retryLimit: 5, jobTimeoutSeconds: 900 });
    const s = await talk(api.mem, "s1");
    const { done } = await s.close();
    // Every summary the model writes fails its schema, so every try fails.
    const broken = scriptedLlm({ byName: { summarize: () => "not json at all" } });
    const worker = await engine(
      "e.db",
      url,
      { work: true, retryLimit: 1, jobTimeoutSeconds: 7 },
      { chat: broken, cognition: "llm", retries: 0 },
    );
    const attempts: string[] = [];
    const timeouts: number[] = [];
    worker.queue.onRun(async (r) => {
      attempts.push(`${r.attempt}:${r.job.state}`);
    });
    const finished = await done;
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    const row = await watcher.query(
      "SELECT extract(epoch FROM expire_in)::int AS t, retry_limit AS r FROM memlane_jobs.job WHERE id = $1",
      [finished?.id],
    );
    await watcher.end();
    timeouts.push(Number(row.rows[0].t), Number(row.rows[0].r));
    assert.deepEqual(timeouts, [7, 1], "the worker's timeout and retries are on the job");
    assert.equal(finished?.state, "failed");
    assert.match(finished?.error ?? "", /consolidation failed/);
    assert.deepEqual(attempts, ["1:queued", "2:failed"]);
    const failures = await api.mem.failures("ava");
    assert.ok(
      failures.length >= 1 && failures.every((f) => f.type === "CONSOLIDATE" && f.sessionId === "s1"),
    );
    assert.equal((await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status, "failed");
    assert.equal(api.mem.jobs().find((j) => j?.id === finished?.id)?.state, "failed");
    // A retry through the engine queues it again; with a sound model it lands.
    await worker.mem.close();
    const fixed = await engine("e.db", url, { work: true });
    const report = await api.mem.retry("ava", "s1");
    assert.deepEqual(
      report.jobs.map((j) => j.state),
      ["done"],
    );
    assert.equal((await api.mem.failures("ava")).length, 0);
    await fixed.mem.close();
    await api.mem.close();
  });

  it("an upload on an API that only enqueues is consolidated by the workers, under their per-agent lock (item 6)", async () => {
    const url = await cluster.createDatabase();
    const api = await engine("upload.db", url, { work: false });
    const worker = await engine("upload.db", url, { work: true });
    const ran: string[] = [];
    worker.queue.onRun((r) => ran.push(`${r.job.agent}/${r.job.sessionId}:${r.job.state}`));
    const [report] = await api.mem.ingestAll([demoTranscript]);
    assert.equal(report!.ingested, 2);
    assert.deepEqual(report!.failures, []);
    assert.deepEqual(ran, ["ava/s1:done", "ava/s2:done"], "each session went through the queue, in order");
    const memories = await api.mem.store.listMemories({ tenant: "acme", agent: "ava" }, {});
    assert.ok(memories.some((m) => /Bristol/.test(m.text)));
    await worker.mem.close();
    await api.mem.close();
  });

  it("an upload whose sessions fail in the workers reports them failed, not ingested (item 6)", async () => {
    const url = await cluster.createDatabase();
    const api = await engine("upload-fail.db", url, { work: false });
    const broken = scriptedLlm({ byName: { summarize: () => "not json at all" } });
    const worker = await engine(
      "upload-fail.db",
      url,
      { work: true, retryLimit: 0 },
      { chat: broken, cognition: "llm", retries: 0 },
    );
    const [report] = await api.mem.ingestAll([demoTranscript]);
    assert.equal(report!.ingested, 0);
    assert.equal(report!.failed, 2);
    assert.deepEqual(
      report!.failures.map((f) => f.sessionId),
      ["s1", "s2"],
    );
    assert.ok(report!.failures.every((f) => f.code && f.error));
    await worker.mem.close();
    await api.mem.close();
  });

  it("a poll finds its rows by index, whatever the retained jobs (item 8)", async () => {
    const url = await cluster.createDatabase();
    const queue = new PostgresJobQueue({ url, ...fast, work: false });
    queue.process(
      async () => true,
      () => undefined,
    );
    await queue.start();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO memlane_jobs.job (id, name, data, state, created_on, completed_on)
         SELECT gen_random_uuid(), $1, jsonb_build_object('tenant', 't', 'agent', 'a' || (i % 100), 'sessionId', 's' || i),
                'completed', now() - i * interval '1 second', now() - i * interval '1 second'
         FROM generate_series(1, 20000) i`,
        [CONSOLIDATE_QUEUE],
      );
      await client.query("ANALYZE memlane_jobs.job");
      const plan = async (sql: string) =>
        (await client.query(`EXPLAIN ${sql}`, [CONSOLIDATE_QUEUE])).rows
          .map((r) => r["QUERY PLAN"])
          .join("\n");
      // The shapes of the poll's reads: unfinished jobs, the newest finished ones.
      assert.match(
        await plan("SELECT id FROM memlane_jobs.job WHERE name = $1 AND state < 'completed'"),
        // On the queue's partition, an index is named after it and its columns: the unfinished
        // jobs in queue order, or the same by scope (name, tenant, agent, created_on, id).
        /Index (Only )?Scan using \w*name_(expr_expr1_)?created_on_id\w*/,
      );
      assert.match(
        await plan(
          "SELECT id FROM memlane_jobs.job WHERE name = $1 AND state >= 'completed' ORDER BY completed_on DESC LIMIT 200",
        ),
        /Index (Only )?Scan using \w*name_completed_on\w*/,
      );
      const t0 = performance.now();
      const jobs = await queue.refreshJobs();
      assert.ok(jobs.length <= 200, "the finished ones listed are the newest 200");
      assert.ok(performance.now() - t0 < 5_000);
    } finally {
      await client.end();
      await queue.close();
    }
  });

  /** The error a refused start rejects with: typed, with the UNSUPPORTED code, naming the supported versions. */
  const refusedPgBoss = (error: unknown) =>
    error instanceof UnsupportedPgBossError &&
    isMemlaneError(error) &&
    error.code === "UNSUPPORTED" &&
    error.message.includes(`>=${SUPPORTED_PGBOSS.minimum} <${SUPPORTED_PGBOSS.below}`) &&
    error.message.includes(`schema version ${SUPPORTED_PGBOSS.schema}`);

  it("refuses to start on pg-boss tables at a schema version it was not written for, and leaves them alone", async () => {
    const url = await cluster.createDatabase();
    const schema = "memlane_jobs_future";
    const first = new PostgresJobQueue({ url, ...fast, work: false, schema });
    await first.start();
    await first.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // As if a process with a newer pg-boss had migrated the tables.
      await client.query(`UPDATE ${schema}.version SET version = 99`);
      const queue = new PostgresJobQueue({ url, ...fast, work: false, schema });
      await assert.rejects(queue.start(), (e: UnsupportedPgBossError) => {
        assert.ok(refusedPgBoss(e), String(e));
        assert.match(e.message, /schema "memlane_jobs_future" are at schema version 99/);
        assert.equal(e.details.schemaVersion, 99);
        return true;
      });
      await queue.close();
      const { rows } = await client.query(`SELECT version FROM ${schema}.version`);
      assert.deepEqual(rows, [{ version: 99 }], "pg-boss did not touch the tables");
      // Back at the supported version, the same schema starts again.
      await client.query(`UPDATE ${schema}.version SET version = $1`, [SUPPORTED_PGBOSS.schema]);
      const again = new PostgresJobQueue({ url, ...fast, work: false, schema });
      await again.start();
      await again.close();
    } finally {
      await client.end();
    }
  });

  it("refuses to start with a pg-boss package it was not written for, before creating anything", async () => {
    const url = await cluster.createDatabase();
    class NewerPgBoss extends PostgresJobQueue {
      protected override pgBossPackage() {
        return { version: "11.0.0", schema: 25 };
      }
    }
    const queue = new NewerPgBoss({ url, ...fast, work: false });
    await assert.rejects(queue.start(), (e: UnsupportedPgBossError) => {
      assert.ok(refusedPgBoss(e), String(e));
      assert.match(e.message, /installed pg-boss is 11\.0\.0/);
      assert.equal(e.details.package, "11.0.0");
      return true;
    });
    // Enqueueing goes through the same start, so it is refused too.
    queue.process(
      async () => true,
      () => undefined,
    );
    await assert.rejects(
      queue.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "s" }),
      refusedPgBoss,
    );
    await queue.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT to_regclass('memlane_jobs.version') AS name");
      assert.equal(rows[0].name, null, "pg-boss created no tables");
    } finally {
      await client.end();
    }
  });

  it("a job archived before this process saw it finish: its done settles from pg-boss's archive", async () => {
    const url = await cluster.createDatabase();
    const queue = new PostgresJobQueue({ url, ...fast, work: false });
    queue.process(
      async () => true,
      () => undefined,
    );
    const { job, done } = await queue.enqueue({
      kind: "consolidate",
      tenant: "t",
      agent: "a",
      sessionId: "s",
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // Completed elsewhere and archived by pg-boss's maintenance in one go, as its archive step
      // moves rows (here without waiting the 12 hours it waits first).
      const columns =
        "id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output";
      await client.query("BEGIN");
      await client.query(
        "UPDATE memlane_jobs.job SET state = 'completed', completed_on = now(), output = '{}' WHERE id = $1",
        [job.id],
      );
      await client.query(
        `WITH archived AS (DELETE FROM memlane_jobs.job WHERE id = $1 RETURNING *)
         INSERT INTO memlane_jobs.archive (${columns}) SELECT ${columns} FROM archived`,
        [job.id],
      );
      await client.query("COMMIT");
      const finished = await Promise.race([
        done,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("done never settled")), 5_000)),
      ]);
      assert.equal(finished.state, "done");
      assert.ok(finished.finishedAt);
      assert.equal(
        (await client.query("SELECT 1 FROM memlane_jobs.job WHERE id = $1", [job.id])).rowCount,
        0,
      );
    } finally {
      await client.end();
      await queue.close();
    }
  });

  it("every statement on pg-boss's tables plans against the tables the installed pg-boss creates", async () => {
    const url = await cluster.createDatabase();
    const queue = new PostgresJobQueue({ url, ...fast, work: false });
    await queue.start();
    await queue.close();
    const tables = new PgBossTables("memlane_jobs", CONSOLIDATE_QUEUE);
    const id = "00000000-0000-4000-8000-000000000000";
    const statements: [string, Statement][] = [
      ["versionTableExists", tables.versionTableExists()],
      ["readSchemaVersion", tables.readSchemaVersion()],
      ["countIndexes", tables.countIndexes()],
      ["claim", tables.claim(id, { timeoutSeconds: 5, retryLimit: 1, retryDelaySeconds: 2 })],
      ["findLostJobs", tables.findLostJobs([id], 30)],
      ["retryNow", tables.retryNow([id])],
      ["earlierUnfinished", tables.earlierUnfinished(id, "t", "a")],
      ["putBack", tables.putBack(id, 1)],
      ["listJobs", tables.listJobs([id])],
      ["park", tables.park(id)],
      ["unparkHead", tables.unparkHead("t", "a", 3)],
      ["unparkAll", tables.unparkAll()],
      ["rebaseTags", tables.rebaseTags(1000)],
      ["pending", tables.pending("t")],
      ["unfinishedSessions", tables.unfinishedSessions([{ tenant: "t", agent: "a", sessionId: "s" }])],
      ["placeBefore", tables.placeBefore(id, "t", "a", ["s2"])],
    ];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const [name, statement] of statements)
        await client
          .query(`EXPLAIN ${statement.text}`, statement.values)
          .catch((error: Error) => assert.fail(`${name}: ${error.message}`));
      assert.deepEqual((await client.query(tables.readSchemaVersion().text)).rows, [
        { version: SUPPORTED_PGBOSS.schema },
      ]);
      const indexes = tables.countIndexes();
      assert.equal((await client.query(indexes.text, indexes.values)).rows[0].n, tables.indexCount);
    } finally {
      await client.end();
    }
  });
});

describe("pg-boss-tables: what the queue relies on in pg-boss (no database)", () => {
  const tables = new PgBossTables("some_schema", "some-queue");
  /** pg-boss's own DDL for its tables, from its public getConstructionPlans. */
  const plans = PgBoss.getConstructionPlans("some_schema");
  const jobTable = plans.match(/CREATE TABLE some_schema\.job \(([\s\S]*?)\n\s*\) PARTITION BY/)?.[1] ?? "";
  const pgBossJobColumns = [...jobTable.matchAll(/^\s*([a-z_]+) /gm)].map((m) => m[1]!);
  const all: Statement[] = [
    tables.versionTableExists(),
    tables.readSchemaVersion(),
    tables.countIndexes(),
    ...tables.createIndexes(),
    tables.claim("id", { timeoutSeconds: 5, retryLimit: 1, retryDelaySeconds: 2 }),
    tables.findLostJobs([], 30),
    tables.retryNow([]),
    tables.earlierUnfinished("id", "t", "a"),
    tables.putBack("id", 1),
    tables.listJobs([]),
    tables.park("id"),
    tables.unparkHead("t", "a"),
    tables.unparkAll(),
    tables.rebaseTags(1000),
    tables.pending("t"),
    tables.unfinishedSessions([]),
    tables.placeBefore("id", "t", "a", []),
  ];

  it("the installed pg-boss is one the queue was tested against", () => {
    const installed = installedPgBoss();
    assert.ok(
      (SUPPORTED_PGBOSS.tested as readonly string[]).includes(installed.version),
      `pg-boss ${installed.version} is installed; run the queue tests against it, then add it to SUPPORTED_PGBOSS`,
    );
    assert.equal(installed.schema, SUPPORTED_PGBOSS.schema);
    checkPgBossPackage(installed);
  });

  it("pg-boss's job table has every column the statements rely on, and they use no others", () => {
    assert.ok(pgBossJobColumns.length > 10, "found pg-boss's job table in its DDL");
    for (const column of JOB_COLUMNS) assert.ok(pgBossJobColumns.includes(column), column);
    const used = new Set(
      all.flatMap((s) =>
        [...s.text.matchAll(/\b[a-z_]+\b/g)].map((m) => m[0]).filter((w) => pgBossJobColumns.includes(w)),
      ),
    );
    assert.deepEqual([...used].sort(), [...JOB_COLUMNS].sort());
  });

  it("pg-boss's job states are in the order the statements compare them in", () => {
    const states = plans.match(/CREATE TYPE some_schema\.job_state AS ENUM \(([^)]*)\)/)?.[1];
    assert.deepEqual(
      states?.split(",").map((s) => s.trim().replace(/'/g, "")),
      ["created", "retry", "active", "completed", "cancelled", "failed"],
    );
    assert.equal(PgBoss.states.completed, "completed");
  });

  it("statements name the schema and take everything else as parameters", () => {
    for (const s of all) assert.match(s.text, /some_schema\.|pg_indexes|to_regclass/);
    assert.deepEqual(tables.putBack("j1", 2).values, ["some-queue", "j1", 2]);
    assert.deepEqual(tables.earlierUnfinished("j1", "t", "a").values, ["some-queue", "j1", "t", "a"]);
    assert.deepEqual(tables.versionTableExists().values, ["some_schema.version"]);
    assert.ok(tables.createIndexes().every((s) => s.text.includes("ON some_schema.job ")));
    assert.doesNotMatch(all.map((s) => s.text).join("\n"), /some-queue/, "the queue name is a parameter");
  });

  it("accepts the supported pg-boss packages and refuses others, naming the supported versions", () => {
    for (const version of [...SUPPORTED_PGBOSS.tested, "10.4.9"])
      checkPgBossPackage({ version, schema: SUPPORTED_PGBOSS.schema });
    for (const [version, schema] of [
      ["10.1.5", 24],
      ["10.0.0", 21],
      ["10.5.0", 24],
      ["11.0.0", 25],
      ["9.0.3", 20],
      ["10.4.2", 25],
    ] as const)
      assert.throws(
        () => checkPgBossPackage({ version, schema }),
        (e: UnsupportedPgBossError) =>
          e.code === "UNSUPPORTED" &&
          e.details.package === version &&
          /pg-boss >=10\.1\.6 <10\.5\.0/.test(e.message),
        version,
      );
  });

  it("before pg-boss starts, a missing or older schema is let through (pg-boss migrates it); after, only the supported one", () => {
    const supported = SUPPORTED_PGBOSS.schema;
    for (const found of [null, 21, supported]) checkPgBossSchema(found, "s", true);
    assert.throws(() => checkPgBossSchema(supported + 1, "s", true), UnsupportedPgBossError);
    checkPgBossSchema(supported, "s", false);
    for (const found of [null, supported - 1, supported + 1])
      assert.throws(() => checkPgBossSchema(found, "s", false), UnsupportedPgBossError);
  });

  it("compares versions by number", () => {
    assert.ok(compareVersions("10.10.0", "10.9.9") > 0);
    assert.ok(compareVersions("10.1.6", "10.1.6") === 0);
    assert.ok(compareVersions("10.5.0-beta.1", "10.5.0") === 0);
    assert.ok(compareVersions("9.0.0", "10.0.0") < 0);
  });
});
