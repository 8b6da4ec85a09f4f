import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonCandidates } from "./json-repair.js";

describe("JSON readings of a model's answer", () => {
  it("a value cut off by the window: closed as it is, and without its unfinished last element", () => {
    const cut =
      '```json\n{"statements": [{"about": "sam", "text": "Sam moved.", "turns": [0]}, {"about": "sam", "te';
    const readings = jsonCandidates(cut);
    assert.ok(
      readings.some(
        (r) => JSON.stringify(r) === '{"statements":[{"about":"sam","text":"Sam moved.","turns":[0]}]}',
      ),
    );
  });

  it("prose around the value, fences and trailing commas", () => {
    assert.deepEqual(jsonCandidates('Sure! {"a": [1, 2,],} Hope it helps.')[0], { a: [1, 2] });
  });
});
