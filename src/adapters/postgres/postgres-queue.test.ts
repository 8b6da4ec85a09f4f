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
import { InvalidInputError } from "../../core/errors.js";
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
    assert.equal((await (await s.close()).done).state, "done");
    await mem.close();
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
    assert.equal(job.state, "queued");
    await api.mem.idle(); // the send is stored; nothing runs here
    await new Promise((r) => setTimeout(r, 600));
    assert.equal((await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status, "closed");
    assert.equal((await api.mem.memories("ava", {})).length, 0, "no worker yet: nothing consolidated");

    const worker = await engine("a.db", url, { work: true });
    const runs: string[] = [];
    worker.queue.onRun((r) => runs.push(`${r.job.sessionId}:${r.job.state}:${r.attempt}`));
    const finished = await done;
    assert.equal(finished.state, "done");
    assert.equal(finished.id, job.id);
    assert.deepEqual(runs, ["s1:done:1"]);
    assert.equal(
      (await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status,
      "consolidated",
    );
    assert.ok((await texts(api.mem, "s1")).length > 0);
    const listed = api.mem.jobs().find((j) => j.id === job.id);
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
    assert.deepEqual([a.state, b.state], ["done", "done"]);
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
      jobs.map((j) => j.state),
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
    assert.equal(finished.state, "done");
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
    assert.equal(taken?.id, job.id);
    await killed.stop({ graceful: false, close: true, wait: true }).catch(() => undefined);
    const t0 = Date.now();
    const worker = await engine("d.db", url, { work: true });
    const finished = await done;
    assert.equal(finished.state, "done");
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
      [finished.id],
    );
    await watcher.end();
    timeouts.push(Number(row.rows[0].t), Number(row.rows[0].r));
    assert.deepEqual(timeouts, [7, 1], "the worker's timeout and retries are on the job");
    assert.equal(finished.state, "failed");
    assert.match(finished.error ?? "", /consolidation failed/);
    assert.deepEqual(attempts, ["1:queued", "2:failed"]);
    const failures = await api.mem.failures("ava");
    assert.ok(
      failures.length >= 1 && failures.every((f) => f.type === "CONSOLIDATE" && f.sessionId === "s1"),
    );
    assert.equal((await api.mem.store.getSession({ tenant: "acme", agent: "ava" }, "s1"))?.status, "failed");
    assert.equal(api.mem.jobs().find((j) => j.id === finished.id)?.state, "failed");
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
        // On the queue's partition, the index is named after it and its columns.
        /Index (Only )?Scan using \w*name_created_on_id\w*/,
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
});
