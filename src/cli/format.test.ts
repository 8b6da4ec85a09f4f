import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Recall, RecallHit, VersionEntry } from "../core/recall.js";
import { recallText } from "./format.js";

const chain: VersionEntry[] = [
  {
    id: "m1",
    text: "Sam lives in Leeds.",
    observedAt: "2024-03-01T10:00:00.000Z",
    invalidAt: "2024-04-01T10:00:00.000Z",
    status: "past",
  },
  { id: "m2", text: "Sam moved to Bristol.", observedAt: "2024-04-01T10:00:00.000Z", status: "current" },
];

const hit = (v: VersionEntry): RecallHit => ({
  kind: "memory",
  id: v.id,
  text: v.text,
  about: "sam",
  score: 1,
  observedAt: v.observedAt,
  sessionId: null,
  sourceTurns: [],
  explanation: { score: 1 },
  status: v.status,
  chain,
});

describe("memlane recall output", () => {
  it("marks each hit current or past with its dates and prints each version chain once", () => {
    process.env.NO_COLOR = "1";
    const recall: Recall = {
      strategy: "carecall",
      query: "Where did Sam live before Bristol?",
      temporal: "past",
      hits: chain.map(hit),
    };
    recall.hits[0]!.memory = { invalidAt: "2024-04-01T10:00:00.000Z" } as RecallHit["memory"];
    const text = recallText(recall);
    assert.match(text, /earlier state/);
    assert.match(text, /1\. .*\[past\].* Sam lives in Leeds\./);
    assert.match(text, /past: 1 March 2024 – 1 April 2024/);
    assert.match(text, /2\. .*\[current\].* Sam moved to Bristol\./);
    assert.match(text, /current since 1 April 2024/);
    assert.equal(text.match(/versions:/g)?.length, 1, "the shared chain is printed once");
    assert.match(text, /versions:.*Leeds.*→.*Bristol/);
  });
});
