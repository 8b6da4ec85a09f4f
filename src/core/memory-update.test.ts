import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type PairLabelWithFusion, updateMemory } from "./memory-update.js";
import { setF1 } from "./set-f1.js";

/** Runs Algorithm 1 on a label table: table[m][s]. */
function run(table: PairLabelWithFusion[][], summaries = table[0]?.length ?? 0) {
  return updateMemory(table.length, summaries, (m, s) => table[m]![s]!);
}

describe("CareCall Algorithm 1", () => {
  it("PASS keeps the memory and drops the summary", () => {
    const r = run([["PASS"]]);
    assert.deepEqual(r.keptMemory, [0]);
    assert.deepEqual(r.addedSummary, []);
    assert.deepEqual(r.droppedSummary.get(0), [{ by: 0, label: "PASS" }]);
  });

  it("REPLACE drops the memory and keeps the summary", () => {
    const r = run([["REPLACE"]]);
    assert.deepEqual(r.keptMemory, []);
    assert.deepEqual(r.addedSummary, [0]);
    assert.deepEqual(r.removedMemory.get(0), [{ by: 0, label: "REPLACE" }]);
  });

  it("APPEND keeps both", () => {
    const r = run([["APPEND"]]);
    assert.deepEqual(r.keptMemory, [0]);
    assert.deepEqual(r.addedSummary, [0]);
  });

  it("DELETE drops both", () => {
    const r = run([["DELETE"]]);
    assert.deepEqual(r.keptMemory, []);
    assert.deepEqual(r.addedSummary, []);
  });

  it("handles empty memory or summary", () => {
    assert.deepEqual(updateMemory(0, 2, () => "APPEND").addedSummary, [0, 1]);
    assert.deepEqual(updateMemory(2, 0, () => "APPEND").keptMemory, [0, 1]);
  });

  it("one summary sentence hitting several memories replaces them all", () => {
    const r = run([["REPLACE"], ["REPLACE"], ["APPEND"]]);
    assert.deepEqual(r.keptMemory, [2]);
    assert.deepEqual(r.addedSummary, [0]);
    assert.deepEqual([...r.removedMemory.keys()], [0, 1]);
  });

  it("one memory hit by several sentences is removed once, and every sentence stays", () => {
    const r = run([["REPLACE", "REPLACE", "APPEND"]]);
    assert.deepEqual(r.keptMemory, []);
    assert.deepEqual(r.addedSummary, [0, 1, 2]);
    assert.equal(r.removedMemory.get(0)!.length, 2);
  });

  it("a PASS from a memory that another sentence removed does not absorb (line 9 before line 10)", () => {
    // m0 PASSes s0 but is REPLACEd by s1: s0 must survive, since m0 is gone.
    const r = run([["PASS", "REPLACE"]]);
    assert.deepEqual(r.keptMemory, []);
    assert.deepEqual(r.addedSummary, [0, 1]);
  });

  it("a DELETE drops the summary even if another memory only APPENDs it", () => {
    const r = run([["DELETE"], ["APPEND"]]);
    assert.deepEqual(r.keptMemory, [1]);
    assert.deepEqual(r.addedSummary, []);
  });

  it("a sentence PASSed by a surviving memory is dropped even if it REPLACEs another", () => {
    const r = run([["REPLACE"], ["PASS"]]);
    assert.deepEqual(r.keptMemory, [1]);
    assert.deepEqual(r.addedSummary, []);
  });

  it("FUSION removes both and asks for one fused sentence", () => {
    const r = run([
      ["FUSION", "APPEND"],
      ["APPEND", "APPEND"],
    ]);
    assert.deepEqual(r.keptMemory, [1]);
    assert.deepEqual(r.addedSummary, [1]);
    assert.deepEqual(r.fusions, [{ memory: 0, summary: 0 }]);
  });
});

describe("set F1", () => {
  it("matches sentences one to one after normalising", () => {
    const s = setF1(
      ["Sam lives in Bristol.", "Sam has a dog", "extra"],
      ["sam lives in bristol", "Sam has a dog."],
    );
    assert.equal(s.matched, 2);
    assert.equal(s.precision, 2 / 3);
    assert.equal(s.recall, 1);
    assert.equal(setF1([], []).f1, 1);
    assert.equal(setF1(["a"], []).f1, 0);
    assert.equal(setF1(["x", "x"], ["x"]).matched, 1);
  });
});
