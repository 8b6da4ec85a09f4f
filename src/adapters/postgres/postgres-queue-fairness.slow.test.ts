/**
 * Fair service on the Postgres queue, on a throwaway cluster: a tenant with one job is served
 * next-ish while another has many queued, with several workers; the agents of a tenant take
 * turns; one agent's jobs still run one at a time and in order; pending(tenant) counts a
 * tenant's unfinished jobs; jobs() says where a waiting job stands; and a session left closed
 * with no job (its queueing failed) is queued by the maintenance sweep, in its agent's order.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { StoreUnavailableError } from "../../core/errors.js";
import type { JobRequest } from "../../engine/consolidation/job-queue.js";
import { silentLogger } from "../../engine/logger.js";
import type { Memlane } from "../../engine/memlane.js";
import { openMemlane } from "../../engine/open-memlane.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";
import { PostgresJobQueue, type PostgresQueueOptions } from "./postgres-queue.js";

const skip = postgresSkipReason() ?? false;
const fast: Partial<PostgresQueueOptions> = {
  pollSeconds: 0.2,
  retryDelaySeconds: 1,
  retryLimit: 2,
  jobTimeoutSeconds: 30,
  maintenanceSeconds: 1,
  logger: silentLogger,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Postgres job queue: fair service", { skip }, () => {
  let cluster: PostgresCluster;
  let dir: string;
  const closing: (() => Promise<unknown>)[] = [];

  before(async () => {
    cluster = await startPostgresCluster();
    dir = mkdtempSync(join(tmpdir(), "memlane-pgq-fair-"));
  });
  after(async () => {
    for (const close of closing.reverse()) await close().catch(() => undefined);
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A queue with a handler that records each job's start and end, and takes `ms` per job. */
  function queue(url: string, options: Partial<PostgresQueueOptions>, log: string[] = [], ms = 0) {
    const q = new PostgresJobQueue({ url, ...fast, ...options });
    q.process(
      async (job) => {
        const name = `${job.tenant}/${job.agent}/${job.sessionId}`;
        log.push(`start ${name}`);
        await sleep(ms);
        log.push(`end ${name}`);
        return true;
      },
      () => undefined,
    );
    closing.push(() => q.close());
    return q;
  }

  const request = (tenant: string, agent: string, sessionId: string): JobRequest => ({
    kind: "consolidate",
    tenant,
    agent,
    sessionId,
  });

  /** Tenant A: `perAgent` sessions for each of its agents, queued agent after agent; then B's one. */
  async function backlog(api: PostgresJobQueue, agents: string[], perAgent: number) {
    const done = [];
    for (const agent of agents)
      for (let i = 0; i < perAgent; i++)
        done.push((await api.enqueue(request("A", agent, `s${String(i).padStart(2, "0")}`))).done);
    done.push((await api.enqueue(request("B", "b1", "s00"))).done);
    return done;
  }

  /** Checks that each agent's jobs ran one at a time, in the order they were queued. */
  function assertSerialInOrder(log: string[]) {
    const byAgent = new Map<string, string[]>();
    for (const line of log) {
      const [what, name] = line.split(" ") as [string, string];
      const agent = name.split("/").slice(0, 2).join("/");
      byAgent.set(agent, [...(byAgent.get(agent) ?? []), `${what} ${name.split("/")[2]}`]);
    }
    for (const [agent, lines] of byAgent) {
      const sessions = lines.filter((l) => l.startsWith("start")).map((l) => l.split(" ")[1]);
      assert.deepEqual(sessions, [...sessions].sort(), `${agent}'s jobs in order`);
      for (let i = 0; i < lines.length; i += 2) {
        assert.match(lines[i]!, /^start /, `${agent}: one at a time`);
        assert.equal(lines[i + 1], `end ${lines[i]!.slice(6)}`, `${agent}: one at a time`);
      }
    }
  }

  it("B's one job starts before most of A's many, with two workers; each agent's jobs run one at a time, in order", async () => {
    const url = await cluster.createDatabase();
    const api = queue(url, { work: false });
    // A's 30 sessions: 20 of one agent (which only one worker at a time may serve), 10 of another.
    const done = await backlog(api, ["a1"], 20);
    for (let i = 20; i < 30; i++) done.push((await api.enqueue(request("A", "a2", `s${i}`))).done);
    const log: string[] = [];
    const t0 = Date.now();
    // A may use both workers here: this is the order of the line, not the share of the workers.
    queue(url, { work: true, perTenant: 2 }, log, 60);
    queue(url, { work: true, perTenant: 2 }, log, 60);
    const finished = await Promise.all(done);
    const elapsed = Date.now() - t0;
    assert.ok(finished.every((j) => j.state === "done"));
    const starts = log.filter((l) => l.startsWith("start")).map((l) => l.slice(6));
    assert.equal(starts.length, 31);
    const b = starts.indexOf("B/b1/s00");
    // First come, B would be 21st (behind all of a1's, queued before it); it is served in the
    // first round, behind at most a job or two of A's.
    assert.ok(b <= 2, `B started ${b + 1}th: ${starts.slice(0, 5).join(", ")}`);
    // A's two agents took turns rather than a1 first: a2's first job was not behind a1's twenty.
    assert.ok(starts.indexOf("A/a2/s20") <= 4, starts.slice(0, 6).join(", "));
    assertSerialInOrder(log);
    // Two workers overlapped: 31 jobs of 60 ms took well under 31 × 60 ms.
    assert.ok(elapsed < 31 * 60 * 0.85 + 1500, `${elapsed} ms`);
  });

  /** The most jobs of `tenant` that ran at once, read from a start/end log. */
  function mostAtOnce(log: string[], tenant: string): number {
    let now = 0;
    let most = 0;
    for (const line of log) {
      if (!line.includes(` ${tenant}/`)) continue;
      now += line.startsWith("start") ? 1 : -1;
      most = Math.max(most, now);
    }
    return most;
  }

  it("one tenant holds at most all but one of the workers' places, so another's job starts at once behind its backlog; perTenant widens the share", async () => {
    const runBacklog = async (perTenant?: number) => {
      const url = await cluster.createDatabase();
      const api = queue(url, { work: false });
      const done: Promise<unknown>[] = [];
      // A's twelve sessions over four agents: without a share, both workers would run A's.
      for (const agent of ["a1", "a2", "a3", "a4"])
        for (let i = 0; i < 3; i++) done.push((await api.enqueue(request("A", agent, `s0${i}`))).done);
      const log: string[] = [];
      const options = perTenant === undefined ? { work: true } : { work: true, perTenant };
      queue(url, options, log, 250);
      queue(url, options, log, 250);
      // B's one job comes while A's backlog runs.
      await sleep(700);
      const queuedAt = Date.now();
      let startedAt = 0;
      const b = (await api.enqueue(request("B", "b1", "s00"))).done.then(() => undefined);
      const watch = setInterval(() => {
        if (!startedAt && log.includes("start B/b1/s00")) startedAt = Date.now();
      }, 10);
      await Promise.all([...done, b]);
      clearInterval(watch);
      return { log, waited: startedAt - queuedAt };
    };
    const shared = await runBacklog();
    assert.equal(mostAtOnce(shared.log, "A"), 1, "two places: A holds one");
    // The free worker looks again within its poll (0.2 s here): B does not wait for A's 250 ms jobs.
    assert.ok(shared.waited < 600, `B waited ${shared.waited} ms`);
    assertSerialInOrder(shared.log);
    const wide = await runBacklog(2);
    assert.equal(mostAtOnce(wide.log, "A"), 2, "perTenant 2: A may hold both");
    assertSerialInOrder(wide.log);
  });

  it("pending(tenant) counts a tenant's unfinished jobs in every process; jobs() says where each waiting job stands", async () => {
    const url = await cluster.createDatabase();
    const api = queue(url, { work: false });
    const other = queue(url, { work: false });
    await backlog(api, ["a1", "a2"], 4);
    assert.equal(await other.pending("A"), 8);
    assert.equal(await other.pending("B"), 1);
    assert.equal(await other.pending("C"), 0);
    const jobs = (await other.refreshJobs()).filter((j) => j.state === "queued");
    assert.equal(jobs.length, 9);
    const position = (tenant: string, agent: string, sessionId: string) =>
      jobs.find((j) => j.tenant === tenant && j.agent === agent && j.sessionId === sessionId)?.position;
    assert.deepEqual(
      jobs.map((j) => j.position).sort((x, y) => x! - y!),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    // a1's first runs next; B's one job second, not ninth; then A's agents take turns.
    assert.equal(position("A", "a1", "s00"), 1);
    assert.equal(position("B", "b1", "s00"), 2);
    assert.equal(position("A", "a2", "s00"), 3);
    for (const agent of ["a1", "a2"]) {
      const mine = ["s00", "s01", "s02", "s03"].map((s) => position("A", agent, s)!);
      assert.deepEqual(
        mine,
        [...mine].sort((x, y) => x - y),
        `${agent}'s jobs keep their order`,
      );
    }
    // The worker's order agrees with the positions it was shown.
    const log: string[] = [];
    queue(url, { work: true }, log, 0);
    for (let i = 0; i < 100 && (await other.pending("A")) + (await other.pending("B")) > 0; i++)
      await sleep(100);
    assert.equal(await other.pending("A"), 0);
    const starts = log.filter((l) => l.startsWith("start")).map((l) => l.slice(6));
    const byPosition = [...jobs]
      .sort((x, y) => x.position! - y.position!)
      .map((j) => `${j.tenant}/${j.agent}/${j.sessionId}`);
    assert.deepEqual(starts, byPosition);
  });

  it("a session left closed with no job (its queueing failed) is queued by the maintenance sweep, before its agent's later sessions", async () => {
    const url = await cluster.createDatabase();
    /** The queue as an API replica has it, whose first send is lost with its connection. */
    class LosesFirstSend extends PostgresJobQueue {
      lost = 0;
      override async enqueue(request: JobRequest) {
        if (this.lost++ === 0) throw new StoreUnavailableError("Connection terminated unexpectedly");
        return super.enqueue(request);
      }
    }
    const apiQueue = new LosesFirstSend({ url, ...fast, work: false });
    const store = join(dir, "sweep.db");
    const open = async (q: PostgresJobQueue): Promise<Memlane> => {
      const mem = await openMemlane({
        store,
        embedder: "hash",
        cognition: "offline",
        strategy: "carecall",
        tenant: "acme",
        logger: silentLogger,
        queue: q,
      });
      closing.push(() => mem.close());
      return mem;
    };
    const api = await open(apiQueue);
    const talk = async (id: string, at: string, text: string) => {
      const s = await api.session({ agent: "ava", partner: "sam", id, at });
      await s.turn("sam", text);
      return s;
    };
    const first = await talk("s1", "2024-03-01T10:00", "I work as a nurse in Leeds.");
    await assert.rejects(first.close(), StoreUnavailableError);
    const scope = { tenant: "acme", agent: "ava" };
    assert.equal((await api.store.getSession(scope, "s1"))?.status, "closed");
    // The agent's next session closes fine and is queued before the lost one is found.
    const second = await talk("s2", "2024-03-08T10:00", "I moved to Bristol and I'm a ward manager now.");
    await second.close();
    assert.equal(await apiQueue.pending("acme"), 1);
    // Nobody closes s1 again and no process restarts: the sweep queues it within a few passes.
    for (let i = 0; i < 100 && (await apiQueue.pending("acme")) < 2; i++) await sleep(100);
    assert.equal(await apiQueue.pending("acme"), 2, "the sweep queued the closed session");
    const workerQueue = new PostgresJobQueue({ url, ...fast, work: true });
    const ran: string[] = [];
    workerQueue.onRun((r) => ran.push(`${r.job.sessionId}:${r.job.state}`));
    await open(workerQueue);
    for (let i = 0; i < 150 && ran.length < 2; i++) await sleep(100);
    assert.deepEqual(ran, ["s1:done", "s2:done"], "s1 first: it came before s2");
    assert.equal((await api.store.getSession(scope, "s1"))?.status, "consolidated");
    assert.equal((await api.store.getSession(scope, "s2"))?.status, "consolidated");
    // The sweep queues nothing twice: the next passes find no closed session without a job.
    await sleep(2500);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT data->>'sessionId' AS s, count(*)::int AS n FROM memlane_jobs.job GROUP BY 1 ORDER BY 1",
      );
      assert.deepEqual(rows, [
        { s: "s1", n: 1 },
        { s: "s2", n: 1 },
      ]);
    } finally {
      await client.end();
    }
  });
});
