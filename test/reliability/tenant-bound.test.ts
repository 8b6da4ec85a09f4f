/**
 * A tenant's line of consolidations is bounded: past `maxPendingJobs` a close is refused with 429
 * and `Retry-After`, the session stays open and nothing is dropped, another tenant is not held to
 * the first's bound, and the same close succeeds once the line has room.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InProcessJobQueue, type JobQueue } from "../../src/index.js";
import { gate } from "../fixtures/gate.js";
import { finished, testService } from "../fixtures/test-service.js";

/** The in-process queue, whose jobs wait at a gate until the test opens it. */
function heldQueue(held: ReturnType<typeof gate>): JobQueue {
  const inner = new InProcessJobQueue();
  return {
    specificationVersion: "v1",
    process: (handler, onChange) =>
      inner.process(async (request) => {
        await held.pass();
        return handler(request);
      }, onChange),
    enqueue: (request) => inner.enqueue(request),
    idle: () => inner.idle(),
    jobs: () => inner.jobs(),
    pending: (tenant) => inner.pending(tenant),
  };
}

describe("a tenant past its bound of waiting consolidations", () => {
  it("is answered 429 with Retry-After, keeps its session open, and closes it once there is room", async () => {
    const held = gate();
    const s = await testService({ engine: { queue: heldQueue(held), maxPendingJobs: 1 } });
    try {
      for (const [tenant, id] of [
        ["acme", "s1"],
        ["acme", "s2"],
        ["globex", "g1"],
      ] as const) {
        const session = await s.mem.tenant(tenant).session({ agent: "ava", partner: "sam", id });
        await session.turn("sam", `I adopted a beagle called Biscuit (${id}).`);
      }
      const first = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/close");
      assert.equal(first.status, 202);
      await held.reached;
      const refused = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s2/close");
      assert.equal(refused.status, 429, await refused.clone().text());
      assert.equal(refused.headers.get("retry-after"), "5");
      const body = (await refused.json()) as { error: { code: string; details: Record<string, unknown> } };
      assert.equal(body.error.code, "BUSY");
      assert.equal(body.error.details.bound, 1);
      assert.equal((await s.mem.tenant("acme").getSession("ava", "s2"))?.status, "open");
      // Another tenant has a line of its own.
      const other = await s.call(s.globex, "POST", "/v1/agents/ava/sessions/g1/close");
      assert.equal(other.status, 202);
      held.open();
      const { job } = (await first.json()) as { job: { id: string } };
      assert.equal((await finished(s, s.acme, job.id)).state, "done");
      const again = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s2/close");
      assert.equal(again.status, 202, await again.clone().text());
      const { job: second } = (await again.json()) as { job: { id: string } };
      assert.equal((await finished(s, s.acme, second.id)).state, "done");
      assert.equal((await s.mem.tenant("acme").getSession("ava", "s2"))?.status, "consolidated");
    } finally {
      held.open();
      await s.close();
    }
  });
});
