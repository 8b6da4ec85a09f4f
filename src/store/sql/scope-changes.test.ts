/**
 * The scope's change log as statements: bumping the version prunes the log only every so many
 * versions once it is long enough, and reading changes says null whenever the log cannot answer
 * (pruned, in the future, not a number), so a search index builds afresh rather than miss a change.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { SqlStatement, StatementResult } from "./program.js";
import { runSync } from "./program.js";
import { bumpVersion, CHANGES_KEPT, readChanges } from "./scope-changes.js";

const scope = { tenant: "t1", agent: "ada" };

function recorder(answer: (s: SqlStatement) => Record<string, unknown>[]) {
  const issued: SqlStatement[] = [];
  const run = (s: SqlStatement): StatementResult => {
    issued.push(s);
    return { rows: answer(s), changes: 1 };
  };
  return { issued, run };
}

describe("bumpVersion", () => {
  const cases: { version: unknown; prunedTo?: number }[] = [
    { version: 1 },
    { version: 256 }, // a multiple of the pruning period, but the log is still short
    { version: CHANGES_KEPT }, // exactly as long as kept: nothing to prune yet
    { version: CHANGES_KEPT + 1 },
    { version: CHANGES_KEPT + 256, prunedTo: 256 },
    { version: "8192", prunedTo: 8192 - CHANGES_KEPT }, // Postgres may hand bigint back as text
    { version: CHANGES_KEPT + 257 },
  ];
  for (const { version, prunedTo } of cases)
    test(`at version ${version} the log is ${prunedTo === undefined ? "left whole" : `pruned up to ${prunedTo}, the horizon recorded`}`, () => {
      const r = recorder(() => [{ version }]);
      assert.equal(runSync(bumpVersion(scope), r.run), Number(version));
      assert.match(
        r.issued[0]!.sql,
        /^INSERT INTO scope_versions .* ON CONFLICT \(tenant, agent\) DO UPDATE SET version = scope_versions\.version \+ 1 RETURNING version$/s,
      );
      assert.deepEqual(r.issued[0]!.params, ["t1", "ada"]);
      if (prunedTo === undefined) return assert.equal(r.issued.length, 1);
      assert.equal(r.issued.length, 3);
      assert.equal(r.issued[1]!.sql, "DELETE FROM scope_changes WHERE tenant = ? AND agent = ? AND seq <= ?");
      assert.deepEqual(r.issued[1]!.params, ["t1", "ada", prunedTo]);
      assert.match(r.issued[2]!.sql, /^INSERT INTO scope_horizons/);
      assert.deepEqual(r.issued[2]!.params, ["t1", "ada", prunedTo]);
    });

  test("a driver that returns no row counts as the first version", () => {
    assert.equal(runSync(bumpVersion(scope), recorder(() => []).run), 1);
  });
});

describe("readChanges", () => {
  const log = [
    { kind: "memory", id: "m1", src: null, dst: null },
    { kind: "turn", id: "u1", src: null, dst: null },
    { kind: "memory-vector", id: "m1", src: null, dst: null },
    { kind: "turn-vector", id: "u1", src: null, dst: null },
    { kind: "edge", id: "e1", src: "m1", dst: "m2" },
    { kind: "scope", id: "?", src: null, dst: null }, // a kind this reader does not know is skipped
  ];
  const answer = (head: Record<string, unknown>[]) => (s: SqlStatement) =>
    s.sql.includes("FROM scope_versions") ? head : log;

  test("gives the ids of each kind changed after the version, up to the current one", () => {
    const r = recorder(answer([{ version: 12, horizon: 3 }]));
    assert.deepEqual(runSync(readChanges(scope, "5"), r.run), {
      version: "12",
      memories: ["m1"],
      turns: ["u1"],
      memoryVectors: ["m1"],
      turnVectors: ["u1"],
      edges: [{ id: "e1", from: "m1", to: "m2" }],
    });
    assert.deepEqual(r.issued[1]!.params, ["t1", "ada", 5, 12]);
    assert.match(r.issued[1]!.sql, /seq > \? AND seq <= \?$/);
  });

  test("at the current version nothing changed, and the log is not read", () => {
    const r = recorder(answer([{ version: 12, horizon: 0 }]));
    assert.deepEqual(runSync(readChanges(scope, "12"), r.run), {
      version: "12",
      memories: [],
      turns: [],
      memoryVectors: [],
      turnVectors: [],
      edges: [],
    });
    assert.equal(r.issued.length, 1);
  });

  const unanswerable: [string, Record<string, unknown>[], string][] = [
    ["before the pruned horizon", [{ version: 12, horizon: 6 }], "5"],
    ["after the current version", [{ version: 12, horizon: 0 }], "13"],
    ["not a number", [{ version: 12, horizon: 0 }], "abc"],
    ["not a whole number", [{ version: 12, horizon: 0 }], "5.5"],
    ["for a scope never written, any version above 0", [], "1"],
  ];
  for (const [name, head, since] of unanswerable)
    test(`a version ${name} gets null`, () => {
      const r = recorder(answer(head));
      assert.equal(runSync(readChanges(scope, since), r.run), null);
      assert.equal(r.issued.length, 1);
    });

  test("the horizon itself is still answered", () => {
    const r = recorder(answer([{ version: 12, horizon: 6 }]));
    assert.notEqual(runSync(readChanges(scope, "6"), r.run), null);
  });

  test("a scope never written has version 0 and no change since 0", () => {
    const r = recorder(answer([]));
    assert.deepEqual(runSync(readChanges(scope, "0"), r.run)?.version, "0");
  });
});
