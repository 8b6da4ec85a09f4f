/**
 * A close stores the session's status, then queues its consolidation. When the queueing fails (a
 * dropped connection, a full connection limit), the session is closed with no job; closing it
 * again queues it, through the library and over REST, instead of answering that it is closed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InProcessJobQueue, type JobQueue, type JobRequest, StoreUnavailableError } from "../../src/index.js";
import { finished, testService } from "../fixtures/test-service.js";

/** The in-process queue, whose next `failures` enqueues fail as a lost database connection would. */
function flakyQueue(failures: number): JobQueue {
  const inner = new InProcessJobQueue();
  let left = failures;
  return {
    specificationVersion: "v1",
    process: (handler, onChange) => inner.process(handler, onChange),
    enqueue: async (request: JobRequest) => {
      if (left-- > 0) throw new StoreUnavailableError("the connection to the job queue was lost");
      return inner.enqueue(request);
    },
    idle: () => inner.idle(),
    jobs: () => inner.jobs(),
  };
}

describe("a close whose queueing failed", () => {
  it("is queued by closing again, and the session reaches memory", async () => {
    const s = await testService({ engine: { queue: flakyQueue(1) } });
    try {
      const session = await s.mem.tenant("acme").session({ agent: "ava", partner: "sam", id: "s1" });
      await session.turn("sam", "I adopted a beagle called Biscuit.");
      const failed = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/close");
      assert.equal(failed.status, 503);
      assert.equal((await s.mem.tenant("acme").getSession("ava", "s1"))?.status, "closed");
      const again = await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/close");
      assert.equal(again.status, 202, await again.clone().text());
      const { job } = (await again.json()) as { job: { id: string } };
      assert.equal((await finished(s, s.acme, job.id)).state, "done");
      assert.equal((await s.mem.tenant("acme").getSession("ava", "s1"))?.status, "consolidated");
      assert.ok((await s.mem.tenant("acme").memories("ava")).some((m) => /beagle|Biscuit/.test(m.text)));
      // Once consolidated, a close is a conflict, as it always was.
      assert.equal((await s.call(s.acme, "POST", "/v1/agents/ava/sessions/s1/close")).status, 409);
    } finally {
      await s.close();
    }
  });

  it("is a conflict while its consolidation is still queued, not a second job", async () => {
    const s = await testService();
    try {
      const mem = s.mem.tenant("acme");
      const session = await mem.session({ agent: "ava", partner: "sam", id: "s2" });
      await session.turn("sam", "I moved to Leeds last month.");
      const { done } = await mem.closeSession("ava", "s2");
      const second = await mem.closeSession("ava", "s2").then(
        () => null,
        (e: { code?: string }) => e.code,
      );
      // Queued or already done: either way no second job, and a conflict says why.
      assert.equal(second, "CONFLICT");
      assert.equal((await done)?.state, "done");
    } finally {
      await s.close();
    }
  });
});
