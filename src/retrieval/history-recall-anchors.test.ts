import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecallHit } from "../core/recall.js";
import { type AnchoredIntent, anchoredSearch } from "./history-recall.js";
import { temporalIntent } from "./temporal-intent.js";

const hit = (id: string, text: string, day: string): RecallHit => ({
  kind: "turn",
  id,
  text,
  about: "sam",
  score: 1,
  observedAt: `2024-${day}T10:00:00.000Z`,
  sessionId: null,
  sourceTurns: [id],
  explanation: {},
});

/** A stub search: each query has its ranked list; every call is recorded. */
function stub(lists: Record<string, RecallHit[]>) {
  const calls: string[] = [];
  const search = async (query: string, k: number) => {
    calls.push(query);
    return (lists[query] ?? []).slice(0, k);
  };
  return { search, calls };
}

const intentOf = (q: string) => temporalIntent(q) as AnchoredIntent;

describe("anchoredSearch", () => {
  const bank = hit("bank", "I work at a bank.", "01-10");
  const cafe = hit("cafe", "I did shifts at a cafe.", "03-02");
  const freelance = hit("free", "I work freelance now.", "05-10");
  const later = hit("later", "Work is busy with eight clients.", "07-01");

  it("puts what was said no later than the anchor first, in the main search's order", async () => {
    const q = "Where did Sam work before he went freelance?";
    const { search, calls } = stub({
      "he went freelance": [freelance],
      "where did sam work": [later, freelance, cafe, bank],
    });
    const hits = await anchoredSearch(search, intentOf(q), q, 10);
    assert.deepEqual(calls, ["he went freelance", "where did sam work"]);
    assert.deepEqual(
      hits.map((h) => h.id),
      ["cafe", "bank", "free", "later"],
    );
  });

  it("puts the anchor's hit right after them, though the main search did not find it", async () => {
    const q = "Where did Sam work before he went freelance?";
    const { search } = stub({ "he went freelance": [freelance], "where did sam work": [later, bank] });
    const hits = await anchoredSearch(search, intentOf(q), q, 10);
    assert.deepEqual(
      hits.map((h) => h.id),
      ["bank", "free", "later"],
    );
  });

  it("measures an after clause forward", async () => {
    const q = "Where did Sam work after he went freelance?";
    assert.equal(temporalIntent(q).signal, "after-clause");
    const { search } = stub({ "he went freelance": [freelance], "where did sam work": [bank, later, cafe] });
    const hits = await anchoredSearch(search, intentOf(q), q, 10);
    assert.deepEqual(
      hits.map((h) => h.id),
      ["later", "free", "bank", "cafe"],
    );
  });

  it("searches the whole question when no hit names the anchor", async () => {
    const q = "Where did Sam work before the summer?";
    const { search, calls } = stub({
      "the summer": [bank],
      [q]: [cafe, bank],
    });
    const hits = await anchoredSearch(search, intentOf(q), q, 10);
    assert.deepEqual(calls, ["the summer", q]);
    assert.deepEqual(
      hits.map((h) => h.id),
      ["cafe", "bank"],
    );
  });

  it("searches the whole question when nothing is found for the anchor, and honours k", async () => {
    const q = "Where did Sam work before he went freelance?";
    const { search } = stub({ [q]: [cafe, bank, later] });
    const hits = await anchoredSearch(search, intentOf(q), q, 2);
    assert.deepEqual(
      hits.map((h) => h.id),
      ["cafe", "bank"],
    );
  });
});
