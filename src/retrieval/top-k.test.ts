import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../core/memory-graph.js";
import { TopK } from "./top-k.js";

describe("top k", () => {
  it("keeps the k best, equal scores by lower document number, in whatever order they come", () => {
    const random = seededRandom(9);
    // Few distinct scores: most documents tie with others.
    const items = Array.from({ length: 500 }, (_, doc) => ({ doc, score: Math.floor(random() * 8) }));
    const expected = (k: number) => [...items].sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, k);
    for (const k of [1, 5, 60, 499, 500, 600]) {
      for (let trial = 0; trial < 5; trial++) {
        const shuffled = [...items].sort(() => random() - 0.5);
        const top = new TopK(k);
        for (const { doc, score } of shuffled) top.push(doc, score);
        assert.deepEqual(top.sorted(), expected(k), `k = ${k}`);
      }
    }
  });
});
