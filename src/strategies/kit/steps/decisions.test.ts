import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decisionsSchema } from "./decisions.js";

describe("batched decisions", () => {
  const schema = decisionsSchema(["A", "B"], 3);
  const answer = (pairs: number[]) => ({ decisions: pairs.map((pair) => ({ pair, label: "A" })) });

  it("reads pairs numbered from 1 when every number from 1 to the count is there once", () => {
    const parsed = schema.parse(answer([3, 1, 2]));
    assert.deepEqual(
      parsed.decisions.map((d) => d.pair),
      [2, 0, 1],
    );
  });

  it("keeps numbers from 0 as they are, and refuses what is ambiguous", () => {
    assert.deepEqual(
      schema.parse(answer([0, 1, 2])).decisions.map((d) => d.pair),
      [0, 1, 2],
    );
    assert.equal(schema.safeParse(answer([1, 2, 2])).success, false, "a repeat");
    assert.equal(schema.safeParse(answer([1, 2])).success, false, "one missing");
  });
});
