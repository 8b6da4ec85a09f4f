/**
 * Uploads are served in turn across tenants: a tenant with many uploads waiting does not make
 * another's one wait behind them all; one tenant's uploads still run one after another, in order;
 * past a tenant's bound an upload is refused and nothing is recorded.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Memlane } from "../../engine/memlane.js";
import { MemoryIngestJobStore } from "../../store/memory-ingest-job-store.js";
import { IngestJobs } from "./ingest-jobs.js";

/** An engine double whose uploads run until the test lets each go, recording the order they start in. */
function gatedEngine(started: string[], gates: Map<string, () => void>, tenant: string): Memlane {
  const double = {
    tenantId: tenant,
    onForget: () => () => undefined,
    ingestAll: async (transcripts: { agent: string }[]) => {
      const name = transcripts[0]!.agent;
      started.push(name);
      await new Promise<void>((resolve) => gates.set(name, resolve));
      return [];
    },
  };
  return double as unknown as Memlane;
}

const upload = (name: string) => [{ agent: name, sessions: [] }];

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(check(), "timed out waiting");
}

describe("ingest jobs across tenants", () => {
  it("runs another tenant's upload before the rest of one tenant's many, and says where each waits", async () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const jobs = new IngestJobs(new MemoryIngestJobStore(), { concurrency: 1 });
    const a = gatedEngine(started, gates, "a");
    const b = gatedEngine(started, gates, "b");
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) ids.push((await jobs.start(a, upload(`a${i}`))).id);
    const bJob = await jobs.start(b, upload("b1"));
    await until(() => started.length === 1);
    // a1 runs; b1 is next, ahead of a's three others.
    assert.equal((await jobs.get("b", bJob.id))?.position, 1);
    assert.deepEqual(await Promise.all(ids.map(async (id) => (await jobs.get("a", id))?.position)), [
      undefined,
      2,
      3,
      4,
    ]);
    for (const name of ["a1", "b1", "a2", "a3", "a4"]) {
      await until(() => gates.has(name));
      gates.get(name)!();
    }
    await jobs.idle();
    assert.deepEqual(started, ["a1", "b1", "a2", "a3", "a4"]);
    assert.equal((await jobs.get("b", bJob.id))?.state, "done");
    await jobs.close();
  });

  it("runs two tenants' uploads at once by default, never two of one tenant", async () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const jobs = new IngestJobs(new MemoryIngestJobStore());
    const a = gatedEngine(started, gates, "a");
    const b = gatedEngine(started, gates, "b");
    await jobs.start(a, upload("a1"));
    await jobs.start(a, upload("a2"));
    await jobs.start(b, upload("b1"));
    await until(() => started.length === 2);
    assert.deepEqual(started, ["a1", "b1"]);
    gates.get("a1")!();
    await until(() => started.length === 3);
    assert.equal(started[2], "a2");
    gates.get("b1")!();
    gates.get("a2")!();
    await jobs.close();
  });

  it("refuses a tenant's upload past its bound with BUSY and a time to come back, recording nothing", async () => {
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const store = new MemoryIngestJobStore();
    const jobs = new IngestJobs(store, { maxPending: 2 });
    const a = gatedEngine(started, gates, "a");
    await jobs.start(a, upload("a1"));
    await jobs.start(a, upload("a2"));
    await assert.rejects(
      jobs.start(a, upload("a3")),
      (error: Error & { code?: string; details?: unknown }) => {
        assert.equal(error.code, "BUSY");
        assert.deepEqual(error.details, { retryAfterSeconds: 10, pending: 2, bound: 2 });
        return true;
      },
    );
    assert.equal((await store.list("a", 100)).length, 2);
    // Another tenant is not bound by a's line.
    await jobs.start(gatedEngine(started, gates, "b"), upload("b1"));
    for (const name of ["a1", "b1", "a2"]) {
      await until(() => gates.has(name));
      gates.get(name)!();
    }
    await jobs.close();
  });
});
