/**
 * Scale-out end to end: two `memlane serve --no-worker` replicas and two `memlane worker`
 * processes on one throwaway Postgres; several clients talk at once, each request going to the
 * next replica; one worker is killed with SIGKILL while it holds a job. At the end every
 * acknowledged turn is stored once, every closed session is consolidated once, no job is left
 * waiting, and the memories equal a single-process run of the same input (offline cognition,
 * hash embedder: deterministic).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { resolveStore } from "../../src/engine/config.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import type { MemoryStore } from "../../src/store/memory-store.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";

const skip = postgresSkipReason() ?? false;
const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const TENANT = "acme";
const CLIENTS = 6;
const SESSIONS = 3;

// Short timeouts so the killed worker's job comes back within seconds (a deployment keeps the
// defaults: 900 s, maintenance every 30 s).
const env = {
  ...process.env,
  MEMLANE_EMBEDDER: "hash",
  MEMLANE_COGNITION: "offline",
  MEMLANE_JOB_TIMEOUT: "5",
  MEMLANE_JOB_RETRY_DELAY: "1",
  MEMLANE_QUEUE_POLL: "0.2",
  MEMLANE_QUEUE_MAINTENANCE: "1",
  NO_COLOR: "1",
};

/** Every process a test started, killed when the file ends whatever happened. */
const running: ChildProcess[] = [];

interface Proc {
  child: ChildProcess;
  /** JSON lines the process printed on stdout. */
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** A memlane command in its own process; resolves once it printed its first JSON line. */
async function start(args: string[]): Promise<Proc> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "--json", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    // serve prints its address as indented JSON, the worker one line per job: gather lines
    // until they make an object.
    let buf = "";
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!buf && !line.trim().startsWith("{")) return;
      buf += line;
      try {
        lines.push(JSON.parse(buf) as Record<string, unknown>);
      } catch {
        return;
      }
      buf = "";
      if (lines.length === 1) resolve();
    });
    exited.then((code) => reject(new Error(`memlane ${args.join(" ")} exited with ${code}: ${stderr}`)));
  });
  running.push(child);
  await ready;
  return { child, lines, exited };
}

/** What client `c` says in its session `k`: facts that change from session to session. */
function script(c: number, k: number): string[] {
  const cities = ["Leeds", "Bristol", "York", "Oslo", "Lisbon", "Porto", "Ghent"];
  const jobs = ["nurse", "teacher", "baker", "carpenter", "pilot", "chemist"];
  const pets = ["Biscuit", "Pepper", "Miso", "Juniper", "Olive", "Sprout"];
  return [
    `I live in ${cities[(c + k) % cities.length]} now, in a small flat near the river.`,
    `I work as a ${jobs[(c * 2 + k) % jobs.length]} and I do day shifts.`,
    `My dog ${pets[c % pets.length]} turned ${k + 2} years old this week.`,
    k % 2 === 0
      ? "I started learning Spanish on an app every morning."
      : "I stopped the Spanish app, it was too much.",
  ];
}

const agentOf = (c: number) => `agent-${c}`;
const dayOf = (k: number) => `2024-03-${String(2 + k * 7).padStart(2, "0")}T18:00`;

describe("scale-out: two API replicas and two workers on one Postgres", { skip }, () => {
  let cluster: PostgresCluster;
  let url: string;

  before(async () => {
    cluster = await startPostgresCluster();
    url = await cluster.createDatabase();
  });
  after(async () => {
    for (const child of running)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await cluster?.stop();
  });

  it("stores every acknowledged turn once, consolidates every session once, as one process would", async (t) => {
    const t0 = Date.now();
    const keys = await openKeyStore(url);
    const { key } = await createApiKey(keys, { tenant: TENANT, name: "scale-out" });
    await keys.close();
    // Replicas and workers start together (each takes a few seconds to load).
    const [api1, api2, w1, w2] = await Promise.all([
      start(["--db", url, "serve", "--no-worker", "--port", "0"]),
      start(["--db", url, "serve", "--no-worker", "--port", "0"]),
      // One tenant here: each worker may take its jobs (by default a tenant holds all but one of
      // the workers' places, which would leave one worker idle and the first perhaps jobless).
      start(["--db", url, "worker", "--per-tenant", "2"]),
      start(["--db", url, "worker", "--per-tenant", "2"]),
    ]);
    const urls = [api1!, api2!].map((p) => p.lines[0]!.url as string);

    // Kill the first worker once it has finished two jobs and holds a scope's lock again: it is
    // in the middle of its third.
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    const killed = (async () => {
      const name = `memlane-queue-locks:${w1!.child.pid}`;
      for (;;) {
        const { rows } = await watcher.query(
          `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND a.application_name = $1`,
          [name],
        );
        if (rows.length > 0 && w1!.lines.length > 2) break;
        // Fail rather than wait for ever when the first worker never takes a third job.
        assert.ok(Date.now() - t0 < 120_000, "the first worker took a third job within two minutes");
        await new Promise((r) => setTimeout(r, 10));
      }
      w1!.child.kill("SIGKILL");
      return Date.now() - t0;
    })();

    // Clients talk at once; every request goes to the next replica.
    let next = 0;
    const call = async (path: string, body?: unknown) => {
      const base = urls[next++ % urls.length];
      const r = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const acknowledged = new Map<string, string[]>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const agent = agentOf(c);
        const turns: string[] = [];
        acknowledged.set(agent, turns);
        for (let k = 0; k < SESSIONS; k++) {
          const id = `c${c}-s${k}`;
          const made = await call("/v1/sessions", { agent, partner: "sam", id, at: dayOf(k) });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          for (const text of script(c, k)) {
            const r = await call(`/v1/agents/${agent}/sessions/${id}/turns`, { speaker: "sam", text });
            assert.equal(r.status, 201, JSON.stringify(r.body));
            turns.push(r.body.id as string);
          }
          // Closed without waiting: the next session starts while this one waits in the queue.
          assert.equal((await call(`/v1/agents/${agent}/sessions/${id}/close`)).status, 202);
        }
      }),
    );
    const killedAt = await killed;
    assert.equal(await w1!.exited, null, "the first worker was killed");

    // Wait for the queue to drain: the killed worker's job times out and runs again.
    const store: MemoryStore = await resolveStore(url);
    const pending = async () =>
      Number(
        (
          await watcher.query(
            "SELECT count(*) FROM memlane_jobs.job WHERE name = 'memlane-consolidate' AND state < 'completed'",
          )
        ).rows[0].count,
      );
    const deadline = Date.now() + 60_000;
    while ((await pending()) > 0) {
      assert.ok(Date.now() < deadline, "the queue drained within a minute");
      await new Promise((r) => setTimeout(r, 250));
    }
    const drainedAt = Date.now() - t0;

    // The single-process reference: the same input, one engine, the in-process queue.
    const alone: Memlane = await openMemlane({
      store: ":memory:",
      embedder: "hash",
      cognition: "offline",
      tenant: TENANT,
      logger: { debug() {}, warn() {}, error() {} },
    });
    for (let c = 0; c < CLIENTS; c++)
      for (let k = 0; k < SESSIONS; k++) {
        const s = await alone.session({ agent: agentOf(c), partner: "sam", id: `c${c}-s${k}`, at: dayOf(k) });
        for (const text of script(c, k)) await s.turn("sam", text);
        await s.close();
      }
    await alone.idle();

    const memoriesOf = async (st: MemoryStore, agent: string) =>
      (await st.listMemories({ tenant: TENANT, agent }, { status: "any" }))
        .map((m) => `${m.sessionId} ${m.status} ${m.text}`)
        .sort();
    const opsOf = async (st: MemoryStore, agent: string) =>
      (await st.listOperations({ tenant: TENANT, agent }))
        .filter((o) => o.status === "done")
        .map((o) => `${o.sessionId} ${o.type}`)
        .sort();
    let memories = 0;
    for (let c = 0; c < CLIENTS; c++) {
      const agent = agentOf(c);
      const scope = { tenant: TENANT, agent };
      const stored = (await store.listTurns(scope)).map((t) => t.id).sort();
      assert.deepEqual(
        stored,
        [...acknowledged.get(agent)!].sort(),
        `${agent}: every acknowledged turn, once`,
      );
      const sessions = await store.listSessions(scope);
      assert.deepEqual(
        sessions.map((s) => s.status),
        Array(SESSIONS).fill("consolidated"),
        `${agent}: every session consolidated`,
      );
      const mine = await memoriesOf(store, agent);
      assert.deepEqual(mine, await memoriesOf(alone.store, agent), `${agent}: memories as in one process`);
      assert.deepEqual(
        await opsOf(store, agent),
        await opsOf(alone.store, agent),
        `${agent}: operations once`,
      );
      assert.equal((await store.listOperations(scope, { status: "failed" })).length, 0);
      memories += mine.length;
    }
    await alone.close();

    // The killed worker's job was run again; nothing failed for good.
    const jobs = (
      await watcher.query(
        "SELECT state, retry_count FROM memlane_jobs.job WHERE name = 'memlane-consolidate'",
      )
    ).rows as { state: string; retry_count: number }[];
    assert.equal(jobs.length, CLIENTS * SESSIONS);
    assert.ok(jobs.every((j) => j.state === "completed"));
    // The kill is aimed at a held job, but it can land in the instant after that job was marked
    // done and before its lock was let go; then nothing needs to run again. postgres-queue.test.ts
    // ("a job left active by a killed worker…") covers that path deterministically, so here that
    // case is reported, not failed.
    if (!jobs.some((j) => j.retry_count > 0))
      t.diagnostic("the kill landed after its job had finished: no job needed to run again");
    await watcher.end();
    await store.close();

    // The others stop gracefully.
    for (const p of [api1!, api2!, w2!]) p.child.kill("SIGTERM");
    assert.deepEqual(await Promise.all([api1!, api2!, w2!].map((p) => p.exited)), [0, 0, 0]);
    const ran = w2!.lines.filter((l) => "job" in l).length;
    process.stdout.write(
      `# scale-out: ${CLIENTS} clients, ${CLIENTS * SESSIONS} sessions, ${[...acknowledged.values()].flat().length} turns, ` +
        `${memories} memories; worker 1 killed at ${killedAt} ms after ${w1!.lines.length - 1} job(s), worker 2 ran ${ran}; ` +
        `queue drained at ${drainedAt} ms, retried jobs ${jobs.filter((j) => j.retry_count > 0).length}\n`,
    );
  });
});
