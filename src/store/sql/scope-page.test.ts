import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Memory, Operation } from "../../core/types.js";
import { emptyUsage } from "../../core/types.js";
import { SCOPE_TABLES, type ScopePage } from "../memory-store.js";
import { openSqliteStore } from "../sqlite/sqlite-store.js";

const scope = { tenant: "t", agent: "ava" };
const memory = (id: string): Memory => ({
  id,
  ...scope,
  about: "sam",
  text: `fact ${id}`,
  kind: "fact",
  strategy: "accumulate",
  observedAt: "2024-01-01T00:00:00.000Z",
  recordedAt: "2024-01-01T00:00:00.000Z",
  status: id.endsWith("3") ? "superseded" : "active",
  invalidAt: null,
  sessionId: null,
  sourceTurns: [],
  attributes: {},
});

describe("readPage", () => {
  it("reads a scope's rows a page at a time in key order, every status, nothing twice", async () => {
    const store = openSqliteStore(":memory:");
    try {
      const ids = ["m_b", "m_a", "m_3", "m_Z", "m_c", "m_1", "m_2"];
      const op: Operation = {
        id: "op_1",
        ...scope,
        type: "ADD",
        status: "done",
        strategy: "accumulate",
        model: "caller",
        sessionId: null,
        memoryIds: ["m_b", "m_a"],
        inputs: null,
        outputs: null,
        rationale: null,
        error: null,
        usage: emptyUsage(),
        at: "2024-01-01T00:00:00.000Z",
        recordedAt: "2024-01-01T00:00:00.000Z",
      };
      await store.write(scope, { memories: ids.map(memory), operations: [op] });
      await store.write({ ...scope, agent: "bob" }, { memories: [{ ...memory("m_x"), agent: "bob" }] });
      const seen: string[] = [];
      let after: string[] | null = null;
      let pages = 0;
      do {
        const page: ScopePage = await store.readPage(scope, "memories", after, 3);
        seen.push(...page.rows.map((m) => (m as Memory).id));
        after = page.next;
        pages++;
      } while (after);
      assert.deepEqual(seen, [...ids].sort());
      assert.equal(pages, 3);
      const ops = await store.readPage(scope, "operations", null, 10);
      assert.deepEqual((ops.rows[0] as Operation).memoryIds, ["m_a", "m_b"]);
      for (const table of SCOPE_TABLES) await store.readPage(scope, table, null, 1);
    } finally {
      await store.close();
    }
  });
});
