import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InProcessJobQueue, type JobRequest } from "./job-queue.js";

const request = (tenant: string, agent: string, sessionId: string): JobRequest => ({
  kind: "consolidate",
  tenant,
  agent,
  sessionId,
});

describe("the in-process job queue", () => {
  it("serves tenants in turn: one tenant's five sessions do not make another's one wait behind them", async () => {
    const ran: string[] = [];
    const queue = new InProcessJobQueue({ concurrency: 1 });
    queue.process(
      async (r) => {
        ran.push(r.sessionId);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return true;
      },
      () => undefined,
    );
    for (let i = 1; i <= 5; i++) await queue.enqueue(request("acme", "ava", `a${i}`));
    const { done } = await queue.enqueue(request("globex", "gus", "g1"));
    // While a1 runs, the line says g1 runs next, before acme's other four.
    const waiting = queue.jobs().filter((j) => j.state === "queued");
    assert.deepEqual(
      waiting.map((j) => [j.sessionId, j.position]),
      [
        ["a2", 2],
        ["a3", 3],
        ["a4", 4],
        ["a5", 5],
        ["g1", 1],
      ],
    );
    assert.equal((await done).state, "done");
    await queue.idle();
    assert.deepEqual(ran, ["a1", "g1", "a2", "a3", "a4", "a5"]);
    assert.ok(queue.jobs().every((j) => j.position === undefined));
  });

  it("runs several at once when told, never two of one agent, each agent's in order", async () => {
    const running = new Set<string>();
    let most = 0;
    const ran: string[] = [];
    const queue = new InProcessJobQueue({ concurrency: 2, perTenant: 2 });
    queue.process(
      async (r) => {
        assert.ok(!running.has(r.agent), `${r.agent} ran twice at once`);
        running.add(r.agent);
        most = Math.max(most, running.size);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running.delete(r.agent);
        ran.push(r.sessionId);
        return r.sessionId !== "b2";
      },
      () => undefined,
    );
    for (const [agent, id] of [
      ["a", "a1"],
      ["a", "a2"],
      ["b", "b1"],
      ["b", "b2"],
      ["a", "a3"],
    ])
      await queue.enqueue(request("t", agent!, id!));
    await queue.idle();
    assert.equal(most, 2);
    assert.deepEqual(
      ran.filter((id) => id.startsWith("a")),
      ["a1", "a2", "a3"],
    );
    assert.deepEqual(
      ran.filter((id) => id.startsWith("b")),
      ["b1", "b2"],
    );
    assert.equal(queue.jobs().find((j) => j.sessionId === "b2")?.state, "failed");
  });

  it("by default keeps a place free: a tenant whose jobs hang holds one of two, and another's run beside", async () => {
    const released: (() => void)[] = [];
    const ran: string[] = [];
    const queue = new InProcessJobQueue();
    queue.process(
      async (r) => {
        ran.push(r.sessionId);
        // The slow tenant's consolidations wait on a model that does not answer until released.
        if (r.tenant === "slow") await new Promise<void>((resolve) => released.push(resolve));
        return true;
      },
      () => undefined,
    );
    for (const agent of ["a", "b", "c"]) await queue.enqueue(request("slow", agent, `${agent}1`));
    const { done } = await queue.enqueue(request("quick", "q", "q1"));
    const quick = await done;
    assert.equal(quick.state, "done");
    // Only one of the slow tenant's three agents got a place; the quick tenant had the other.
    assert.deepEqual(ran, ["a1", "q1"]);
    assert.equal(await queue.pending("slow"), 3);
    assert.equal(await queue.pending("quick"), 0);
    while (released.length > 0 || ran.length < 4) {
      released.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.idle();
    assert.equal(await queue.pending("slow"), 0);
  });
});
