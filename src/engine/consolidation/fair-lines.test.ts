import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FairLines } from "./fair-lines.js";

/** A gate per item: the test decides when each running item finishes. */
function gated() {
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const run = (item: string) =>
    new Promise<void>((resolve) => {
      started.push(item);
      release.set(item, resolve);
    });
  const finish = async (item: string) => {
    release.get(item)!();
    // Let the line start what may start next.
    await new Promise((r) => setImmediate(r));
  };
  return { started, run, finish };
}

describe("fair lines", () => {
  it("serves tenants in turn: one tenant's long line does not hold another's single item", async () => {
    const g = gated();
    const lines = new FairLines<string>(1, g.run);
    for (let i = 1; i <= 5; i++) lines.push("acme", "ava", `acme-${i}`);
    lines.push("globex", "gus", "globex-1");
    assert.deepEqual(g.started, ["acme-1"]);
    await g.finish("acme-1");
    // First come would run acme-2 to acme-5 first.
    assert.deepEqual(g.started, ["acme-1", "globex-1"]);
    await g.finish("globex-1");
    assert.deepEqual(g.started.at(-1), "acme-2");
  });

  it("serves agents of one tenant in turn, and each agent's items in the order queued", async () => {
    const g = gated();
    const lines = new FairLines<string>(1, g.run);
    for (const item of ["a1", "a2", "a3"]) lines.push("t", "a", item);
    lines.push("t", "b", "b1");
    for (const item of ["a1", "b1", "a2", "a3"]) await g.finish(item);
    assert.deepEqual(g.started, ["a1", "b1", "a2", "a3"]);
  });

  it("runs up to its concurrency at once, never two items of one agent", async () => {
    const g = gated();
    const lines = new FairLines<string>(3, g.run);
    lines.push("t", "a", "a1");
    lines.push("t", "a", "a2");
    lines.push("t", "b", "b1");
    lines.push("u", "c", "c1");
    // Three may run, but a2 waits for a1: its agent is busy.
    assert.deepEqual(g.started.sort(), ["a1", "b1", "c1"]);
    assert.equal(lines.active, 3);
    assert.equal(lines.queued, 1);
    await g.finish("b1");
    assert.ok(!g.started.includes("a2"));
    await g.finish("a1");
    assert.ok(g.started.includes("a2"));
  });

  it("says where each queued item stands: the order they would start in", () => {
    const lines = new FairLines<string>(1, () => new Promise<void>(() => undefined));
    lines.push("t", "a", "running");
    for (const item of ["a1", "a2"]) lines.push("t", "a", item);
    lines.push("t", "b", "b1");
    lines.push("u", "c", "c1");
    // u was never served, then in t the agent served longest ago (b, never) before a.
    assert.deepEqual(lines.order(), ["c1", "b1", "a1", "a2"]);
  });

  it("keeps serving after an item fails", async () => {
    const started: string[] = [];
    const lines = new FairLines<string>(1, async (item) => {
      started.push(item);
      if (item === "bad") throw new Error("failed");
    });
    lines.push("t", "a", "bad");
    lines.push("t", "a", "good");
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(started, ["bad", "good"]);
  });

  it("refuses a concurrency that is not a whole number of at least 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      assert.throws(() => new FairLines(bad, async () => undefined), RangeError);
  });
});
