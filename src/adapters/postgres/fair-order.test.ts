import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type LineJob, queuePositions } from "./fair-order.js";

/** Jobs in queue order; a scope's first job holds tag `tag`, the others are parked. */
function line(tenant: string, agent: string, n: number, tag = 0, running = false): LineJob[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${tenant}/${agent}/${i}`,
    tenant,
    agent,
    running: running && i === 0,
    tag: i === 0 ? tag : null,
  }));
}

/** The ids of the waiting jobs by position. */
function order(jobs: LineJob[]): string[] {
  const positions = queuePositions(jobs);
  return [...positions].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

describe("queuePositions: where each waiting job of the Postgres queue stands", () => {
  it("a tenant with one job waits behind one of another tenant's many, not all of them", () => {
    const got = order([...line("A", "a1", 5, 0), ...line("B", "b1", 1, 0)]);
    assert.deepEqual(got.slice(0, 3), ["A/a1/0", "B/b1/0", "A/a1/1"]);
    assert.equal(got.length, 6);
  });

  it("the agents of a tenant take turns, and tenants take turns", () => {
    const got = order([...line("A", "a1", 3, 0), ...line("A", "a2", 2, 1), ...line("B", "b1", 3, 0)]);
    assert.deepEqual(got, ["A/a1/0", "B/b1/0", "A/a2/0", "B/b1/1", "A/a1/1", "B/b1/2", "A/a2/1", "A/a1/2"]);
  });

  it("one agent's jobs keep their order", () => {
    const got = order([...line("A", "a1", 4, 0), ...line("B", "b1", 4, 0)]);
    for (const p of ["A/a1/", "B/b1/"]) {
      const mine = got.filter((id) => id.startsWith(p));
      assert.deepEqual(
        mine,
        [0, 1, 2, 3].map((i) => `${p}${i}`),
      );
    }
  });

  it("a running job has no position; its agent's next job follows its turn", () => {
    const positions = queuePositions([...line("A", "a1", 3, 0, true), ...line("B", "b1", 1, 0)]);
    assert.equal(positions.has("A/a1/0"), false);
    assert.equal(positions.get("B/b1/0"), 1);
    assert.equal(positions.get("A/a1/1"), 2);
    assert.equal(positions.get("A/a1/2"), 3);
  });

  it("a long line costs its length, not its square", () => {
    const jobs = [...line("A", "a1", 20_000, 0), ...line("B", "b1", 20_000, 0)];
    const t0 = performance.now();
    assert.equal(queuePositions(jobs).size, 40_000);
    assert.ok(performance.now() - t0 < 2_000);
  });
});
