/**
 * An acknowledged transcript upload survives a killed server: `memlane serve` is SIGKILLed while
 * its ingest job is half way through, a new `memlane serve` on the same database takes the job
 * over under the same id, and it ends done with every turn stored once and the memories an
 * uninterrupted ingest makes. On a SQLite file, and on a throwaway Postgres server (skipped,
 * saying why, where no server binaries exist; CI requires them).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { configFrom } from "../../src/cli/options.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { openKeyStore } from "../../src/store/open-key-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";
import { servedUrl } from "../fixtures/served-url.js";
import { sqliteRows } from "../fixtures/sqlite-rows.js";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "memlane-ingest-restart-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, MEMLANE_EMBEDDER: "hash", NO_COLOR: "1" };

/** `memlane serve` over `db` on a free loopback port with a one-second ingest lease. */
async function serve(db: string): Promise<{ child: ChildProcess; url: string }> {
  const args = ["--import", "tsx", CLI, "--db", db, "--json", "serve", "--port", "0", "--ingest-lease", "1"];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "ignore"] });
  const url = await servedUrl(child);
  return { child, url };
}

// Long enough that the kill lands mid-ingest (about 0.1 s a session here), small enough to be quick.
const SESSIONS = 40;
const TURNS = 6;
const transcript = {
  agent: "ava",
  sessions: Array.from({ length: SESSIONS }, (_, i) => ({
    id: `s${i}`,
    at: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString(),
    partner: "sam",
    turns: Array.from({ length: TURNS }, (_, j) => ({
      speaker: j % 2 === 0 ? "ava" : "sam",
      text:
        j % 2 === 0
          ? `How was week ${i}, Sam?`
          : `Week ${i}: I hiked near Bergen with my dog Rex, and my sister number ${j} visited from Oslo.`,
    })),
  })),
};

/** A database of either kind, and a way to read its rows on a connection of the test's own. */
interface Backend {
  /** The `--db` spec. */
  db: string;
  /** A fresh database of the same kind for the uninterrupted reference run. */
  reference: string;
  /** Rows of a statement without parameters, run against `spec`'s memlane tables. */
  rows<T>(spec: string, sql: string): Promise<T[]>;
}

const postgresRows = async <T>(url: string, sql: string): Promise<T[]> => {
  const pg = (await import("pg")).default;
  const client = new pg.Client(url);
  await client.connect();
  try {
    await client.query("SET search_path TO memlane");
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
};

type MemoryRow = { session_id: string; about: string; kind: string; text: string; status: string };
const memoriesOf = (rows: MemoryRow[]) =>
  rows.map((m) => [m.session_id, m.about, m.kind, m.text, m.status].join(" | ")).sort();
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function killedMidIngest(backend: Backend): Promise<void> {
  const { db } = backend;
  const rows = <T>(sql: string) => backend.rows<T>(db, sql);
  const consolidated = async () =>
    Number(
      (await rows<{ n: number }>("SELECT count(*) AS n FROM sessions WHERE status = 'consolidated'"))[0]?.n ??
        0,
    );
  const keys = await openKeyStore(db);
  const { key } = await createApiKey(keys, { tenant: "acme" });
  await keys.close();
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };

  const first = await serve(db);
  const posted = await fetch(`${first.url}/v1/ingest`, {
    method: "POST",
    headers,
    body: JSON.stringify(transcript),
  });
  assert.equal(posted.status, 202);
  const { job } = (await posted.json()) as { job: { id: string; state: string } };
  assert.match(job.id, /^ingest-[0-9a-f-]+$/);

  // Killed once a few sessions are consolidated and many are not.
  for (let i = 0; i < 600 && (await consolidated()) < 5; i++) await new Promise((r) => setTimeout(r, 50));
  const killed = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill("SIGKILL");
  await killed;

  const jobRow = `SELECT state, transcripts FROM ingest_jobs WHERE tenant = 'acme' AND id = '${job.id}'`;
  const [left] = await rows<{ state: string; transcripts: string | null }>(jobRow);
  assert.equal(left?.state, "running", "the kill interrupted the job");
  assert.ok(left?.transcripts, "the acknowledged transcript is on disk");
  const doneBeforeKill = await consolidated();
  assert.ok(
    doneBeforeKill >= 5 && doneBeforeKill < SESSIONS,
    `killed half way: ${doneBeforeKill} consolidated`,
  );

  const second = await serve(db);
  try {
    let shown: Record<string, unknown> = {};
    for (let i = 0; i < 600; i++) {
      const res = await fetch(`${second.url}/v1/jobs/${job.id}`, { headers });
      assert.equal(res.status, 200, "the job is known after the restart");
      shown = (await res.json()) as Record<string, unknown>;
      if (shown.state === "done" || shown.state === "failed") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(shown.state, "done", JSON.stringify(shown));
    assert.equal(shown.id, job.id);
    assert.equal(shown.kind, "ingest");
    const [report] = shown.reports as {
      sessions: number;
      ingested: number;
      skipped: number;
      resumed: number;
      failed: number;
    }[];
    assert.equal(report?.sessions, SESSIONS);
    assert.equal(report?.failed, 0);
    assert.ok(report!.skipped >= doneBeforeKill, "what was consolidated before the kill is skipped");
    assert.equal(report!.ingested + report!.resumed + report!.skipped, SESSIONS);
    // Listed once (beside, on Postgres, the queue's consolidation of a session the kill left closed).
    const listed = (await (await fetch(`${second.url}/v1/jobs`, { headers })).json()) as {
      jobs: { id: string; kind: string }[];
    };
    assert.deepEqual(
      listed.jobs.filter((j) => j.kind === "ingest").map((j) => j.id),
      [job.id],
    );

    // Every turn once, in its place, with its words; every session consolidated.
    const turns = await rows<{ session_id: string; idx: number; text: string }>(
      "SELECT session_id, idx, text FROM turns WHERE tenant = 'acme' AND agent = 'ava' ORDER BY session_id, idx",
    );
    const expected = transcript.sessions
      .flatMap((s) => s.turns.map((t, idx) => ({ session_id: s.id, idx, text: t.text })))
      .sort((a, b) => byteOrder(a.session_id, b.session_id) || a.idx - b.idx);
    assert.equal(turns.length, SESSIONS * TURNS);
    assert.deepEqual(turns, expected);
    const statuses = await rows<{ status: string }>("SELECT status FROM sessions WHERE tenant = 'acme'");
    assert.equal(statuses.length, SESSIONS);
    assert.ok(statuses.every((s) => s.status === "consolidated"));
    const [finished] = await rows<{ transcripts: string | null }>(jobRow);
    assert.equal(finished?.transcripts, null, "a finished job keeps no copy of the transcript");

    // The memories are those of one uninterrupted ingest: nothing consolidated twice or lost.
    const reference = await openMemlane(configFrom({ db: backend.reference, tenant: "acme" }, env));
    await reference.ingest(transcript);
    await reference.close();
    const memories = "SELECT session_id, about, kind, text, status FROM memories WHERE tenant = 'acme'";
    const want = memoriesOf(await backend.rows<MemoryRow>(backend.reference, memories));
    assert.ok(want.length > 0);
    assert.deepEqual(memoriesOf(await rows<MemoryRow>(memories)), want);
  } finally {
    const exited = new Promise((resolve) => second.child.once("exit", resolve));
    second.child.kill("SIGTERM");
    assert.equal(await exited, 0);
  }
}

describe("service: killed during ingest and started again", () => {
  it("finishes the acknowledged upload under the same job id, each turn stored once (SQLite)", async () => {
    await killedMidIngest({
      db: join(dir, "ingest.db"),
      reference: join(dir, "reference.db"),
      rows: async (path, sql) => sqliteRows(path, sql),
    });
  });
});

let cluster: PostgresCluster | undefined;
describe("service on Postgres: killed during ingest and started again", {
  skip: postgresSkipReason() ?? false,
}, () => {
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  it("finishes the acknowledged upload under the same job id, each turn stored once (Postgres)", async () => {
    await killedMidIngest({
      db: await cluster!.createDatabase(),
      reference: await cluster!.createDatabase(),
      rows: postgresRows,
    });
  });
});
