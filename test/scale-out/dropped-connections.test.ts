/**
 * Postgres connections dropped under a running process: the server
 * terminates every memlane backend (`pg_terminate_backend`, what a restart or a failover does)
 * while a job runs and while writes are in flight. Nothing may reach `uncaughtException` (an
 * unhandled `'error'` event on a checked-out connection killed `serve` and `worker` before), the
 * job still finishes exactly once, and the next writes and reads succeed on new connections.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { openPostgresStore } from "../../src/adapters/postgres/open-store.js";
import { PostgresJobQueue } from "../../src/adapters/postgres/postgres-queue.js";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { silentLogger } from "../../src/engine/logger.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";
import { memory, scopeA, session } from "../../src/testing/rows.js";
import { gate } from "../fixtures/gate.js";
import { servedUrl } from "../fixtures/served-url.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;

const skip = postgresSkipReason() ?? false;

/**
 * A working queue whose handler records each session it runs and holds the job of `holdAt` at a
 * gate until the test opens it.
 */
function queueHolding(url: string, holdAt: string) {
  const held = gate();
  const runs: string[] = [];
  const queue = new PostgresJobQueue({
    url,
    pollSeconds: 0.2,
    retryDelaySeconds: 1,
    jobTimeoutSeconds: 30,
    maintenanceSeconds: 1,
    logger: silentLogger,
  });
  queue.process(
    async (request) => {
      runs.push(request.sessionId);
      if (request.sessionId === holdAt) await held.pass();
      return true;
    },
    () => undefined,
  );
  return { queue, held, runs };
}

describe("dropped Postgres connections", { skip }, () => {
  let cluster: PostgresCluster;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  before(async () => {
    cluster = await startPostgresCluster();
    process.on("uncaughtException", onUncaught);
  });
  after(async () => {
    process.off("uncaughtException", onUncaught);
    await cluster?.stop();
  });

  /** Terminates every backend of the database but the caller's own; returns how many. */
  async function terminateAll(url: string): Promise<number> {
    const admin = openPostgresStore(url, { schema: "admin" });
    try {
      const { rows } = await admin.client.query<{ n: string }>(
        `SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      return Number(rows[0]?.n ?? 0);
    } finally {
      await admin.close();
    }
  }

  it("a job whose connections are terminated while it runs: no crash, the job ends once, the queue goes on", async () => {
    const url = await cluster.createDatabase();
    const { queue, held, runs } = queueHolding(url, "s1");
    try {
      const first = await queue.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "s1" });
      await held.reached;
      assert.ok((await terminateAll(url)) > 0, "memlane's connections were there to terminate");
      // An idle, checked-out connection reports the end on its next tick.
      await new Promise((r) => setTimeout(r, 300));
      held.open();
      assert.equal((await first.done).state, "done");
      const second = await queue.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "s2" });
      assert.equal((await second.done).state, "done");
      assert.deepEqual(
        runs.filter((s) => s === "s1"),
        ["s1"],
      );
      assert.deepEqual(uncaught, [], "nothing reached uncaughtException");
    } finally {
      held.open();
      await queue.close();
    }
  });

  it("writes in flight when every connection is terminated: no crash; later writes and reads succeed", async () => {
    const url = await cluster.createDatabase();
    const store = openPostgresStore(url);
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      let written = 0;
      const writes = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; i < 25; i++) {
          try {
            await store.write(scopeA, { memories: [memory(scopeA, `w${w}-${i}`)] });
            written++;
          } catch (error) {
            // A write cut off by the termination fails, typed; the next one reconnects.
            assert.match((error as Error).name, /StoreUnavailableError|MemlaneError|Error/);
          }
        }
      });
      await new Promise((r) => setTimeout(r, 50));
      await terminateAll(url);
      await new Promise((r) => setTimeout(r, 100));
      await terminateAll(url);
      await Promise.all(writes);
      await store.write(scopeA, { memories: [memory(scopeA, "after")] });
      const texts = new Set((await store.listMemories(scopeA, {})).map((m) => m.text));
      assert.ok(texts.has("after"));
      assert.ok(texts.size >= written + 1, "every write reported as done is stored");
      assert.deepEqual(uncaught, [], "nothing reached uncaughtException");
    } finally {
      await store.close();
    }
  });

  it("a server restart under writes and a running job: every process goes on, the job ends exactly once", async () => {
    const url = await cluster.createDatabase();
    const store = openPostgresStore(url);
    const { queue, held, runs } = queueHolding(url, "r1");
    try {
      await store.write(scopeA, { sessions: [session(scopeA, "s1")] });
      const job = await queue.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "r1" });
      await held.reached;
      let stop = false;
      let failures = 0;
      const load = (async () => {
        for (let i = 0; !stop; i++)
          await store.write(scopeA, { memories: [memory(scopeA, `load ${i}`)] }).catch(() => {
            failures++;
          });
      })();
      await cluster.restart();
      held.open();
      assert.equal((await job.done).state, "done");
      stop = true;
      await load;
      await store.write(scopeA, { memories: [memory(scopeA, "after the restart")] });
      assert.ok((await store.listMemories(scopeA, {})).some((m) => m.text === "after the restart"));
      const next = await queue.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "r2" });
      assert.equal((await next.done).state, "done");
      assert.deepEqual(
        runs.filter((s) => s === "r1"),
        ["r1"],
        "the job ran once",
      );
      assert.ok(failures >= 0);
      assert.deepEqual(uncaught, [], "nothing reached uncaughtException");
    } finally {
      held.open();
      await queue.close();
      await store.close();
    }
  });

  it("`serve --no-worker` and `worker` processes stay up through terminated connections and a restart", async () => {
    const url = await cluster.createDatabase();
    const keys = await openKeyStore(url);
    const { key } = await createApiKey(keys, { tenant: "acme", name: "drops" });
    await keys.close();
    const env = {
      ...process.env,
      MEMLANE_EMBEDDER: "hash",
      MEMLANE_COGNITION: "offline",
      MEMLANE_QUEUE_POLL: "0.2",
      MEMLANE_QUEUE_MAINTENANCE: "1",
      NO_COLOR: "1",
    };
    const children: ChildProcess[] = [];
    /** The end of each child's stderr, so a failure says why a process ended. */
    const said = new Map<ChildProcess, string>();
    const spawnCli = (args: string[]) => {
      const child = spawn(process.execPath, ["--import", "tsx", CLI, "--json", "--db", url, ...args], {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      child.stderr!.on("data", (d) => said.set(child, `${said.get(child) ?? ""}${d}`.slice(-3000)));
      return child;
    };
    const ended = (child: ChildProcess) => `exit ${child.exitCode}; stderr ends:\n${said.get(child) ?? ""}`;
    try {
      const api = spawnCli(["serve", "--no-worker", "--port", "0"]);
      const worker = spawnCli(["worker"]);
      const started = new Promise<void>((resolve) => {
        worker.stdout!.on("data", (d) => {
          if (String(d).includes('"worker"')) resolve();
        });
      });
      const base = await servedUrl(api);
      await started;
      const call = async (path: string, body?: unknown) => {
        const r = await fetch(`${base}${path}`, {
          method: body === undefined && !path.endsWith("/close") ? "GET" : "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: r.status, body: (await r.json()) as Record<string, unknown> };
      };
      const talk = async (id: string) => {
        assert.equal(
          (await call("/v1/sessions", { agent: "ava", partner: "sam", id, at: "2024-03-02T18:00" })).status,
          201,
        );
        const turn = await call(`/v1/agents/ava/sessions/${id}/turns`, {
          speaker: "sam",
          text: `I moved to Leeds (${id}).`,
        });
        assert.equal(turn.status, 201, JSON.stringify(turn.body));
        assert.equal((await call(`/v1/agents/ava/sessions/${id}/close`)).status, 202);
      };
      await talk("s1");
      // Load: turns appended and sessions closed (jobs for the worker) without pause, while every
      // connection is terminated three times and then the server restarts. Requests cut off may
      // fail; the processes must not.
      let stop = false;
      const load = Array.from({ length: 3 }, async (_, c) => {
        for (let i = 0; !stop; i++) await talk(`load-${c}-${i}`).catch(() => undefined);
      });
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 300));
        await terminateAll(url);
      }
      await cluster.restart();
      stop = true;
      await Promise.all(load);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(api.exitCode, null, `serve is still running (${ended(api)})`);
      assert.equal(worker.exitCode, null, `the worker is still running (${ended(worker)})`);
      // The first request after the restart may meet a connection the pool has not dropped yet.
      let talked = false;
      for (let i = 0; i < 5 && !talked; i++)
        talked = await talk(`s${i + 2}`).then(
          () => true,
          () => false,
        );
      assert.ok(talked, "a session goes through after the restart");
      // One agent's jobs run one at a time, each after the last: allow a minute and a half on a
      // loaded machine.
      const deadline = Date.now() + 90_000;
      for (;;) {
        const jobs = (await call("/v1/jobs")).body.jobs as { state: string }[] | undefined;
        if (jobs && jobs.length >= 2 && jobs.every((j) => j.state === "done")) break;
        assert.ok(
          Date.now() < deadline,
          `every job ends done: ${JSON.stringify(jobs?.filter((j) => j.state !== "done"))}`,
        );
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.equal(api.exitCode, null, ended(api));
      assert.equal(worker.exitCode, null, ended(worker));
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("a worker killed mid-job: another takes the job over within seconds, not after the job timeout (item 4)", async () => {
    const url = await cluster.createDatabase();
    const child = spawn(
      process.execPath,
      ["--import", "tsx", new URL("../fixtures/hanging-worker.ts", import.meta.url).pathname, url],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    const said = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (out.includes(text) ? resolve() : undefined);
        child.stdout!.on("data", (d) => {
          out += d;
          check();
        });
        child.once("exit", (code) => reject(new Error(`the worker exited with ${code}`)));
        check();
      });
    // The default job timeout (900 s): only a takeover can finish the job within the test.
    const enqueuer = new PostgresJobQueue({ url, work: false, pollSeconds: 0.2, logger: silentLogger });
    const runs: string[] = [];
    let survivor: PostgresJobQueue | undefined;
    try {
      await said("ready");
      enqueuer.process(
        async () => true,
        () => undefined,
      );
      const first = await enqueuer.enqueue({ kind: "consolidate", tenant: "t", agent: "a", sessionId: "k1" });
      const second = await enqueuer.enqueue({
        kind: "consolidate",
        tenant: "t",
        agent: "a",
        sessionId: "k2",
      });
      await said("running k1");
      child.kill("SIGKILL");
      const killedAt = Date.now();
      survivor = new PostgresJobQueue({ url, pollSeconds: 0.2, logger: silentLogger });
      survivor.process(
        async (request) => {
          runs.push(request.sessionId);
          return true;
        },
        () => undefined,
      );
      const waitFor = async (id: string) => {
        for (;;) {
          const job = survivor!.jobs().find((j) => j.id === id);
          if (job?.state === "done") return Date.now() - killedAt;
          assert.ok(Date.now() - killedAt < 30_000, `job ${id} was not taken over: ${JSON.stringify(job)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      const took = await waitFor(first.job.id);
      await waitFor(second.job.id);
      assert.deepEqual(runs, ["k1", "k2"], "taken over, then the scope's next job, in order");
      assert.ok(took < 15_000, `taken over in ${took} ms`);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await survivor?.close();
      await enqueuer.close();
    }
  });
});
