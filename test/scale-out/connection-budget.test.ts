/**
 * The connection budget: two `memlane serve --no-worker` replicas and two `memlane worker`
 * processes, as real processes with their default settings, on a Postgres server started with
 * its own default `max_connections = 100`. Many clients talk at once, each request to the next
 * replica, so the replicas' pools (the store's, the session locks', the queue's) open what the
 * load asks of them, while the workers consolidate every closed session. A watcher counts the
 * connections in pg_stat_activity every 25 ms: they never pass the budget of 4 × 20 = 80, no
 * request fails, and every session is consolidated.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import { POSTGRES_DEFAULTS } from "../../src/store/postgres-settings.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";

const skip = postgresSkipReason() ?? false;
const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const CLIENTS = 24;
const TURNS = 3;

const env = {
  ...process.env,
  MEMLANE_EMBEDDER: "hash",
  MEMLANE_COGNITION: "offline",
  MEMLANE_QUEUE_POLL: "0.2",
  NO_COLOR: "1",
};

const running: ChildProcess[] = [];

/** A memlane command in its own process; resolves with it once it printed its first JSON line. */
async function start(args: string[]): Promise<{ child: ChildProcess; first: Record<string, unknown> }> {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, "--json", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(child);
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    let buf = "";
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!buf && !line.trim().startsWith("{")) return;
      buf += line;
      try {
        const first = JSON.parse(buf) as Record<string, unknown>;
        resolve({ child, first });
      } catch {
        return;
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`memlane ${args.join(" ")} exited with ${code}: ${stderr}`)),
    );
  });
}

describe("connection budget: two replicas and two workers under max_connections = 100", { skip }, () => {
  let cluster: PostgresCluster;
  let url: string;

  before(async () => {
    cluster = await startPostgresCluster({ maxConnections: 100 });
    url = await cluster.createDatabase();
  });
  after(async () => {
    for (const child of running)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await cluster?.stop();
  });

  it("never opens more than 80 connections, and every request and job succeeds", async () => {
    const keys = await openKeyStore(url);
    const { key } = await createApiKey(keys, { tenant: "acme", name: "budget" });
    await keys.close();
    const watcher = new pg.Client({ connectionString: url, application_name: "budget-watcher" });
    await watcher.connect();
    const [api1, api2, w1, w2] = await Promise.all([
      start(["--db", url, "serve", "--no-worker", "--port", "0"]),
      start(["--db", url, "serve", "--no-worker", "--port", "0"]),
      start(["--db", url, "worker"]),
      start(["--db", url, "worker"]),
    ]);
    const urls = [api1, api2].map((p) => p.first.url as string);
    const pids = [api1, api2, w1, w2].map((p) => p.child.pid!);

    // Every client connection but the watcher's, by application name.
    let peak = { total: 0, byName: {} as Record<string, number> };
    let watching = true;
    const sampling = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ name: string; n: string }>(
          `SELECT application_name AS name, count(*) AS n FROM pg_stat_activity
           WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1`,
        );
        const byName = Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
        const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
        if (total > peak.total) peak = { total, byName };
        await new Promise((r) => setTimeout(r, 25));
      }
    })();

    let next = 0;
    const call = async (path: string, body?: unknown) => {
      const base = urls[next++ % urls.length];
      const r = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.text() };
    };
    const failures: string[] = [];
    const expect = (what: string, got: { status: number; body: string }, status: number) => {
      if (got.status !== status) failures.push(`${what}: ${got.status} ${got.body}`);
    };
    // Each client its own agent and session, all at once: every replica appends to many sessions
    // at the same moment (each append holds a session lock and a store connection).
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const agent = `agent-${c}`;
        const id = `s${c}`;
        expect(
          "session",
          await call("/v1/sessions", { agent, partner: "sam", id, at: "2024-03-02T18:00" }),
          201,
        );
        await Promise.all(
          Array.from({ length: TURNS }, async (_, t) =>
            expect(
              "turn",
              await call(`/v1/agents/${agent}/sessions/${id}/turns`, {
                speaker: "sam",
                text: `I moved to city number ${c} and my dog turned ${t + 2} this week.`,
              }),
              201,
            ),
          ),
        );
        expect("close", await call(`/v1/agents/${agent}/sessions/${id}/close`), 202);
      }),
    );
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await watcher.query(
        "SELECT count(*) FILTER (WHERE state < 'completed') AS open, count(*) FILTER (WHERE state = 'completed') AS done FROM memlane_jobs.job WHERE name = 'memlane-consolidate'",
      );
      if (Number(rows[0].open) === 0 && Number(rows[0].done) === CLIENTS) break;
      assert.ok(Date.now() < deadline, `jobs still open: ${JSON.stringify(rows[0])}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    watching = false;
    await sampling;
    const sessions = await watcher.query("SELECT status, count(*) AS n FROM memlane.sessions GROUP BY 1");
    await watcher.end();

    assert.deepEqual(failures, []);
    assert.deepEqual(
      sessions.rows.map((r) => [r.status, Number(r.n)]),
      [["consolidated", CLIENTS]],
    );
    const budget = 4 * POSTGRES_DEFAULTS.maxConnections;
    console.log(
      `# peak ${peak.total} connections (budget ${budget}, server max 100): ${JSON.stringify(peak.byName)}`,
    );
    assert.ok(peak.total <= budget, `peak ${peak.total} connections, over the budget of ${budget}`);
    // Each process's own pools (named with its pid) stay within its budget less pg-boss's 3.
    for (const pid of pids) {
      const own = Object.entries(peak.byName)
        .filter(([name]) => name.endsWith(`:${pid}`))
        .reduce((sum, [, n]) => sum + n, 0);
      assert.ok(own <= POSTGRES_DEFAULTS.maxConnections - 3, `process ${pid} held ${own} connections`);
    }
    for (const child of running) child.kill("SIGTERM");
  });
});
