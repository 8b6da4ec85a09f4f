/**
 * The clause splitter as a table: coordinated clauses become sentences of their own (a subject
 * borrowed when the second has none), a companion named inside a fact becomes its own fact, and
 * phrases that only look coordinated stay whole.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { atomicClauses } from "./atomic.js";

const cases: [sentence: string, clauses: string[]][] = [
  // A companion named inside another fact.
  ["I live in Leeds with my dog Biscuit.", ["I live in Leeds.", "I have a dog called Biscuit."]],
  [
    "I live in Leeds with my dog Biscuit, a beagle.",
    ["I live in Leeds.", "I have a dog called Biscuit, a beagle."],
  ],
  ["Sam lives in Leeds with her husband Tom.", ["Sam lives in Leeds.", "Sam has a husband called Tom."]],
  // What would be left says too little ("I live"): kept whole.
  ["I live with my dog Rex.", ["I live with my dog Rex."]],
  // No name after the companion: nothing to split off.
  ["I went with my friend to the park.", ["I went with my friend to the park."]],
  // Coordination of words, not clauses.
  ["I like cats and dogs.", ["I like cats and dogs."]],
  ["I love rock and roll.", ["I love rock and roll."]],
  // Coordinated clauses, each with its own subject.
  [
    "My sister moved to Paris, and she works at a bank.",
    ["My sister moved to Paris.", "She works at a bank."],
  ],
  ["I work at a bank; I also paint on weekends.", ["I work at a bank.", "I also paint on weekends."]],
  ["We walked, and then we ate.", ["We walked.", "We ate."]],
  // A second clause without a subject borrows the first one's.
  ["I moved to Bristol and started a new job.", ["I moved to Bristol.", "I started a new job."]],
  ["He is tired but works every day.", ["He is tired.", "He works every day."]],
  [
    "I quit my job and then moved to Rome and now I teach yoga.",
    ["I quit my job.", "I moved to Rome.", "Now I teach yoga."],
  ],
  // "also" and "now" stay with their clause: one adds, the other changes.
  ["I play the piano and also sing in a choir.", ["I play the piano.", "I sing in a choir too."]],
  // Whitespace is trimmed and a clause always ends with a full stop.
  ["   Hello there   ", ["Hello there."]],
];

describe("atomicClauses", () => {
  for (const [sentence, clauses] of cases)
    test(`"${sentence.trim()}" → ${clauses.length} clause${clauses.length > 1 ? "s" : ""}`, () => {
      assert.deepEqual(atomicClauses(sentence), clauses);
    });
});
