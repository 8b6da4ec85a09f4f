import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PAIR_GRID, rerank } from "../eval/recall/context-pairs.js";

describe("context pairs (recall experiment)", () => {
  const ids = ["a", "b", "c"];
  const scores = [2, 1.9, 1.5];

  it("keeps the hybrid's order at the grid's first point", () => {
    assert.deepEqual(PAIR_GRID[0], [0, 0]);
    assert.deepEqual(rerank(ids, scores, [0.9, 0.1, 0.2], [0.1, 0.1, 0.9], [0, 0]), ids);
  });

  it("lifts a turn whose pair with its neighbour matches, by the weight over the best pair", () => {
    // c's pair with the turn after it is the best match: c earns wn × 1, a earns wn × 0.1 / 0.9.
    assert.deepEqual(rerank(ids, scores, [0, 0, 0], [0.1, 0, 0.9], [0, 0.6]), ["c", "a", "b"]);
    // The same lift from the pair with the turn before; a negative cosine earns nothing.
    assert.deepEqual(rerank(ids, scores, [-0.5, 0.8, 0], [0, 0, 0], [0.2, 0]), ["b", "a", "c"]);
    // A turn that ends its session has no pair after it.
    assert.deepEqual(rerank(ids, scores, [0, 0, 0], [undefined, 0.2, undefined], [0, 0.5]), ["b", "a", "c"]);
  });
});
