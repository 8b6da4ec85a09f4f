/**
 * Ingest jobs across servers sharing one database, in process: a job whose server stopped
 * renewing it is taken over and finished under its id; one whose server renews it is left alone
 * until the renewals stop.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createApiKey } from "../../src/adapters/server/api-keys.js";
import { createService } from "../../src/adapters/server/app.js";
import { warmOffline } from "../../src/cognition/offline/warm-up.js";
import type { PendingIngestJob } from "../../src/store/ingest-job-store.js";
import { openSqliteIngestJobStore } from "../../src/store/sqlite/ingest-job-store.js";
import { openSqliteKeyStore } from "../../src/store/sqlite/key-store.js";
import { demoTranscript, testMemlane } from "../fixtures/engine.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-ingest-takeover-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { debug() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function left(id: string, owner: string, heartbeatAt: string, agent: string): PendingIngestJob {
  return {
    tenant: "acme",
    id,
    state: "running",
    error: null,
    queuedAt: "2026-01-01T00:00:00.000Z",
    startedAt: "2026-01-01T00:00:01.000Z",
    finishedAt: null,
    reports: null,
    owner,
    heartbeatAt,
    // The demo conversation, with `agent` in ava's place.
    transcripts: [
      {
        agent,
        sessions: demoTranscript.sessions.map((s) => ({
          ...s,
          turns: s.turns.map((t) => ({ ...t, speaker: t.speaker === "ava" ? agent : t.speaker })),
        })),
      },
    ],
  };
}

describe("service: ingest jobs of other servers", () => {
  it("takes over a job whose server is gone, and one whose server is alive only once it stops renewing it", async () => {
    // As `memlane serve` does before it listens: the offline models load synchronously on first
    // use (WordNet, the spelling dictionaries), and loading them mid-test would hold this
    // process's heartbeats past the lease, as if the live server had gone quiet.
    warmOffline();
    const path = join(dir, "jobs.db");
    const jobs = await openSqliteIngestJobStore(path);
    // Two jobs other servers wrote: one a minute silent, one that its server keeps renewing.
    await jobs.add(left("ingest-gone", "server-gone", new Date(Date.now() - 60_000).toISOString(), "ava"));
    await jobs.add(left("ingest-alive", "server-alive", new Date().toISOString(), "bob"));
    const renewing = setInterval(() => void jobs.heartbeat("server-alive", new Date().toISOString()), 50);
    const mem = await testMemlane({ strategy: "carecall", logger: quiet });
    const keys = await openSqliteKeyStore(":memory:");
    const acme = (await createApiKey(keys, { tenant: "acme" })).key;
    const globex = (await createApiKey(keys, { tenant: "globex" })).key;
    const service = createService({ mem, keys, ingestJobs: jobs, ingestLeaseMs: 400, logger: quiet });
    const read = async (key: string, id: string) => {
      const res = await service.app.request(`/v1/jobs/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      return { status: res.status, job: (await res.json()) as Record<string, unknown> };
    };
    const until = async (id: string, state: string) => {
      for (let i = 0; i < 300; i++) {
        if ((await read(acme, id)).job.state === state) return;
        await sleep(20);
      }
      assert.fail(`${id} never became ${state}: ${JSON.stringify((await read(acme, id)).job)}`);
    };
    try {
      assert.deepEqual(
        (await service.resume()).map((j) => j.id),
        ["ingest-gone"],
      );
      await until("ingest-gone", "done");
      const gone = (await read(acme, "ingest-gone")).job;
      assert.equal((gone.reports as { ingested: number }[])[0]?.ingested, 2);
      assert.equal((await mem.tenant("acme").memories("ava")).length > 0, true);
      assert.equal((await read(globex, "ingest-gone")).status, 404, "another tenant's job does not exist");

      // Renewed by its server for longer than a lease: left alone.
      await sleep(1000);
      assert.equal((await read(acme, "ingest-alive")).job.state, "running");
      assert.equal((await jobs.get("acme", "ingest-alive"))?.owner, "server-alive");
      assert.deepEqual(await mem.tenant("acme").agents(), ["ava"]);
      // Its server goes quiet: taken over within a lease and a sweep, and run here.
      clearInterval(renewing);
      await until("ingest-alive", "done");
      assert.equal(
        (await jobs.get("acme", "ingest-alive"))?.owner,
        (await jobs.get("acme", "ingest-gone"))?.owner,
      );
      const [report] = (await read(acme, "ingest-alive")).job.reports as {
        agent: string;
        ingested: number;
      }[];
      assert.deepEqual([report?.agent, report?.ingested], ["bob", 2]);
      assert.deepEqual((await mem.tenant("acme").agents()).sort(), ["ava", "bob"]);
    } finally {
      clearInterval(renewing);
      await service.close();
      await mem.close();
      await keys.close();
      await jobs.close();
    }
  });

  it("queues a job once when two sweeps take it over at the same time", async () => {
    const jobs = await openSqliteIngestJobStore(join(dir, "twice.db"));
    await jobs.add(left("ingest-once", "server-gone", new Date(Date.now() - 60_000).toISOString(), "ava"));
    const mem = await testMemlane({ strategy: "carecall", logger: quiet });
    const keys = await openSqliteKeyStore(":memory:");
    const service = createService({ mem, keys, ingestJobs: jobs, ingestLeaseMs: 60_000, logger: quiet });
    try {
      const [a, b] = await Promise.all([service.resume(), service.resume()]);
      assert.deepEqual(
        [...a!, ...b!].map((j) => j.id),
        ["ingest-once"],
      );
      await service.idle();
      const [report] = (await jobs.get("acme", "ingest-once"))!.reports as {
        ingested: number;
        skipped: number;
      }[];
      assert.deepEqual([report?.ingested, report?.skipped], [2, 0], "ran once, not again over its own work");
    } finally {
      await service.close();
      await mem.close();
      await keys.close();
      await jobs.close();
    }
  });
});
