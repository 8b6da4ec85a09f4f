/**
 * Long turns are accepted (up to the engine's maxTurnChars, 1 MiB by default)
 * and searched as passages: each passage has its own vector and BM25 document, a hit says which
 * passage matched, and the summarizer reads them in pieces.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_MAX_TURN_CHARS } from "../engine/api.js";
import { testMemlane } from "../testing/test-memlane.js";
import { PASSAGE_CHARS, passagesOf } from "./turn-embedding-text.js";

const FILLER = "We talked about the weather and the traffic on the way in, nothing much else. ";

function longText(chars: number, needleAt: number, needle: string): string {
  const before = FILLER.repeat(Math.ceil(needleAt / FILLER.length)).slice(0, needleAt);
  const after = FILLER.repeat(Math.ceil((chars - needleAt) / FILLER.length)).slice(
    0,
    chars - needleAt - needle.length,
  );
  return `${before} ${needle} ${after}`;
}

describe("long turns", () => {
  it("cuts a long text into passages that cover it in order, near sentence ends", () => {
    const text = longText(20_000, 12_000, "My sister Priya adopted a greyhound called Comet.");
    const passages = passagesOf(text);
    assert.ok(passages.length >= 13, `${passages.length} passages`);
    assert.equal(passages[0]!.start, 0);
    assert.equal(passages.at(-1)!.end, text.length);
    for (const [i, p] of passages.entries()) {
      assert.ok(p.end - p.start <= PASSAGE_CHARS, "none longer than PASSAGE_CHARS");
      if (i > 0) assert.equal(p.start, passages[i - 1]!.end, "no gap, no overlap");
    }
    assert.ok(
      passages.slice(0, -1).every((p) => /[.!?]\s*$/.test(text.slice(p.start, p.end))),
      "cut after sentences",
    );
    assert.deepEqual(passagesOf("short"), [{ start: 0, end: 5 }]);
  });

  it("stores a 300,000-character turn and finds the passage that answers", async () => {
    const mem = await testMemlane({ strategy: "none" });
    const needle = "My sister Priya adopted a greyhound called Comet.";
    const text = longText(300_000, 250_000, needle);
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "Hi there, good to see you.");
    await s.turn("sam", text);
    const [hit] = (
      await mem.recall({
        agent: "ava",
        about: "sam",
        query: "what dog did Priya adopt?",
        units: "turns",
        k: 1,
      })
    ).hits;
    assert.equal(hit?.id, `${s.id}:2`);
    assert.ok(hit?.passage, "the hit says which passage matched");
    assert.ok(hit.text.includes(needle), "its text is the passage");
    assert.ok(hit.text.length <= PASSAGE_CHARS);
    assert.equal(text.slice(hit.passage.start, hit.passage.end), hit.text);
    assert.ok(hit.passage.start > 200_000 && hit.passage.of === passagesOf(text).length);
    // One vector per passage, stored with the turn (so forget takes them with it).
    const stored = await mem.store.getEmbeddings(mem.scope("ava"), "turn", [hit.id], mem.embedder.name);
    assert.equal(stored.get(hit.id)?.length, passagesOf(text).length * mem.embedder.dimensions);
    await mem.forget({ agent: "ava", sessionId: s.id });
    assert.equal(
      (await mem.recall({ agent: "ava", about: "sam", query: "Priya greyhound", units: "turns" })).hits
        .length,
      0,
    );
    await mem.close();
  });

  it("consolidates a session holding a long turn into memories (the summarizer reads it in pieces)", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    const text = longText(
      60_000,
      30_000,
      "I moved to Bristol last spring and I work as a nurse at the children's hospital.",
    );
    await mem.ingest({
      agent: "ava",
      sessions: [{ id: "s1", at: "2024-05-01", partner: "sam", turns: [{ speaker: "sam", text }] }],
    });
    const memories = await mem.memories("ava", { about: "sam" });
    assert.ok(
      memories.some((m) => /Bristol|nurse/.test(m.text)),
      memories.map((m) => m.text).join(" | "),
    );
    await mem.close();
  });

  it("accepts a turn of exactly the default limit", async () => {
    const mem = await testMemlane({ strategy: "none" });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "word ".repeat(DEFAULT_MAX_TURN_CHARS / 5));
    assert.equal((await s.turns()).length, 1);
    await mem.close();
  });
});
