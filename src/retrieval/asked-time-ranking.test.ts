import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asksWhen, unitTime } from "./asked-time.js";
import { fuseScaled } from "./fusion.js";

const at = "2023-05-25T13:14:00.000Z";
const w = { dense: 1, bm25: 1, subject: 0, time: 0, dated: 0.5, recency: 0, source: 0, neighbour: 0 };

describe("questions that ask for a time", () => {
  it("knows a question asking when, how long or which year, and not one that only says when", () => {
    for (const q of [
      "When did Melanie run a charity race?",
      "How long ago was Caroline's 18th birthday?",
      "Which year did Audrey adopt her dogs?",
      "In what month did John start boot camp?",
      "How many weeks passed between Maria adopting Coco and Shadow?",
      "Thanks! When is the party?",
    ])
      assert.ok(asksWhen(q), q);
    for (const q of [
      "What did Sam say when he left?",
      "How many times did Sam call?",
      "Where does Sam live?",
    ])
      assert.ok(!asksWhen(q), q);
  });

  it("marks a unit dated when its words place something in time, resolvable or not", () => {
    for (const text of [
      "I ran a charity race last Saturday.",
      "We went camping with my fam two weekends ago.",
      "That roadtrip this past weekend was insane!",
      "Seven years now, and I've found my muses.",
      "Back in 2016 I started painting.",
      "We went hiking on Saturday.",
      "Last Wed I joined a new group.",
    ])
      assert.ok(unitTime(text, at).dated, text);
    for (const text of ["How was the charity race?", "It may rain, I love pizza.", "I sat in the sun."])
      assert.ok(!unitTime(text, at).dated, text);
  });

  it("lifts the dated unit above an equally relevant one that only names the event", () => {
    const dated = (doc: number) => doc === 1;
    const input = {
      dense: [
        { doc: 0, score: 0.6 },
        { doc: 1, score: 0.55 },
      ],
      lexical: [
        { doc: 0, score: 4 },
        { doc: 1, score: 3.8 },
      ],
    };
    const without = fuseScaled(input, w);
    assert.ok(without.get(0)!.score! > without.get(1)!.score!);
    const withDated = fuseScaled({ ...input, dated }, w);
    assert.ok(withDated.get(1)!.score! > withDated.get(0)!.score!);
    assert.equal(withDated.get(1)!.dated, 0.5);
  });
});
