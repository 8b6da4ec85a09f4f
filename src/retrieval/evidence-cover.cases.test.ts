/**
 * The covering pick and the missed turns as tables: each row is a ranked list of hits (written as
 * `id:turn+turn`, best first), a k, and the ids that must come back in that order.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { RecallHit } from "../core/recall.js";
import { COVER_DEPTH, coverDepth, coverFirst, missedTurns } from "./evidence-cover.js";

/** "a:t1+t2" is hit a made from turns t1 and t2; "a:" is a hit with no source turn. */
function hits(spec: string): RecallHit[] {
  return spec
    .split(/\s+/)
    .filter(Boolean)
    .map((s, i) => {
      const [id, turns] = s.split(":") as [string, string];
      return {
        kind: "memory",
        id,
        text: id,
        about: "sam",
        score: 100 - i,
        observedAt: "2024-01-01T00:00:00.000Z",
        sessionId: "s1",
        sourceTurns: turns ? turns.split("+") : [],
        explanation: {},
      };
    });
}
const ids = (list: RecallHit[]) => list.map((h) => h.id).join(" ");

describe("coverFirst", () => {
  const cases: [name: string, ranked: string, k: number, picked: string][] = [
    ["nothing ranked picks nothing", "", 5, ""],
    ["k of 0 picks nothing", "a:t1 b:t2", 0, ""],
    ["hits that each bring a new turn keep their order", "a:t1 b:t2 c:t3", 3, "a b c"],
    ["a hit whose turn is covered waits behind one that brings a new turn", "a:t1 b:t1 c:t2", 2, "a c"],
    ["the waiting hits fill what is left of k, in their order", "a:t1 b:t1 c:t1 d:t2", 3, "a d b"],
    ["more k than hits gives every hit, the covered ones last", "a:t1 b:t1 c:t2", 10, "a c b"],
    ["a hit bringing one new turn among covered ones is picked", "a:t1 b:t1+t2 c:t1", 2, "a b"],
    ["a hit covered by the union of earlier hits waits", "a:t1 b:t2 c:t1+t2 d:t3", 3, "a b d"],
    ["a hit without source turns is its own evidence, always picked", "a:t1 b: c: d:t2", 3, "a b c"],
    ["the same hit ranked twice with source turns is picked once first", "a:t1 a:t1 b:t2", 2, "a b"],
    ["the same hit ranked twice without source turns is picked twice", "a: a: b:t2", 2, "a a"],
    ["the best hit stays first even when later hits bring more turns", "a:t1 b:t2+t3+t4", 1, "a"],
    // Reading stops once k are picked: a covered hit seen before then may still fill a place.
    ["once k bring new turns, the waiting hits are left out", "a:t1 b:t1 c:t2 d:t3", 3, "a c d"],
    ["a turn repeated inside one hit counts once", "a:t1+t1 b:t1 c:t2", 2, "a c"],
  ];
  for (const [name, ranked, k, picked] of cases)
    test(`${name} (${ranked || "none"}, k=${k} → ${picked || "none"})`, () => {
      assert.equal(ids(coverFirst(hits(ranked), k)), picked);
    });

  test("the hits come back as given, not copies, and the input is left in its order", () => {
    const ranked = hits("a:t1 b:t1 c:t2");
    const out = coverFirst(ranked, 3);
    assert.equal(out[1], ranked[2]);
    assert.equal(ids(ranked), "a b c");
  });
});

describe("coverDepth", () => {
  const depths: [k: number, depth: number][] = [
    [0, 0],
    [1, 2],
    [2, 3],
    [5, 8],
    [10, 15],
    [7, 11],
  ];
  for (const [k, depth] of depths)
    test(`reads ${depth} hits deep for k = ${k} (k × ${COVER_DEPTH}, rounded up)`, () => {
      assert.equal(coverDepth(k), depth);
    });
});

describe("missedTurns", () => {
  const turns = (spec: string) =>
    hits(spec).map((h) => ({ ...h, kind: "turn" as const, sourceTurns: [h.id] }));
  const cases: [name: string, memories: string, ranked: string, n: number, missed: string][] = [
    ["n of 0 brings nothing back", "", "t1 t2", 0, ""],
    ["a negative n brings nothing back", "", "t1 t2", -3, ""],
    ["with no memory shown, the first n turns come back", "", "t1 t2 t3", 2, "t1 t2"],
    ["turns a shown memory was made from are left out", "a:t1 b:t3", "t1 t2 t3 t4", 5, "t2 t4"],
    ["at most n, in the turn ranker's order", "a:t2", "t3 t2 t1 t4", 2, "t3 t1"],
    ["a memory without source turns covers no turn", "a:", "t1", 1, "t1"],
    ["every turn covered brings nothing back", "a:t1+t2", "t2 t1", 3, ""],
  ];
  for (const [name, memories, ranked, n, missed] of cases)
    test(name, () => {
      assert.equal(ids(missedTurns(hits(memories), turns(ranked), n)), missed);
    });
});
