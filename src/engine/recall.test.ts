import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../test/fixtures/engine.js";
import { InvalidInputError } from "../core/errors.js";

/**
 * A session whose short answer ("Mostly brown, with a white patch.") is a fragment the
 * offline summary keeps no statement of, beside a turn it does keep.
 */
async function beagleMemlane(strategy = "carecall") {
  const mem = await testMemlane({ strategy });
  const s = await mem.session({ agent: "ava", partner: "sam", at: "2023-05-08T13:56" });
  await s.turn("sam", "I finally adopted the beagle yesterday! His name is Biscuit.");
  await s.turn("ava", "Congratulations! What colour is his coat?");
  await s.turn("sam", "Mostly brown, with a white patch.");
  await s.turn("ava", "He sounds adorable.");
  await (await s.close()).done;
  await mem.idle();
  const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
  return { mem, answer: turns.find((t) => t.text.startsWith("Mostly brown"))! };
}

describe("recall: turns the memories missed", () => {
  it("adds the turns no returned memory was made from, after the memories", async () => {
    const { mem, answer } = await beagleMemlane();
    const memories = await mem.memories("ava");
    assert.ok(memories.length > 0);
    assert.ok(
      memories.every((m) => !m.sourceTurns.includes(answer.id)),
      "the fragment is in no memory (the premise of this test)",
    );
    const query = "What colour is Biscuit's coat?";
    const plain = await mem.recall({ agent: "ava", query, k: 2, about: "sam" });
    assert.ok(plain.hits.every((h) => h.kind === "memory"));
    const mixed = await mem.recall({ agent: "ava", query, k: 2, turns: 2, about: "sam" });
    // The memories come first, exactly as without the option.
    assert.deepEqual(
      mixed.hits.slice(0, plain.hits.length).map((h) => h.id),
      plain.hits.map((h) => h.id),
    );
    const added = mixed.hits.slice(plain.hits.length);
    assert.ok(added.length > 0 && added.length <= 2, JSON.stringify(added));
    assert.ok(added.every((h) => h.kind === "turn"));
    assert.ok(
      added.some((h) => h.id === answer.id),
      added.map((h) => h.text).join(" | "),
    );
    const covered = new Set(plain.hits.flatMap((h) => h.sourceTurns));
    assert.ok(
      added.every((h) => !covered.has(h.id)),
      "a turn a shown memory was made from is not repeated",
    );
    // turns: 0 is the plain recall.
    assert.deepEqual(await mem.recall({ agent: "ava", query, k: 2, turns: 0, about: "sam" }), plain);
    await mem.close();
  });

  it("finds turns for a strategy that keeps no memory, only of sessions the partner was in", async () => {
    const { mem, answer } = await beagleMemlane("none");
    const k = await mem.session({ agent: "ava", partner: "kim", at: "2023-05-09T09:00" });
    await k.turn("kim", "My corgi's coat colour is red and white.");
    await k.turn("ava", "What a lovely coat colour.");
    await (await k.close()).done;
    await mem.idle();
    const recall = await mem.recall({
      agent: "ava",
      query: "What colour is Biscuit's coat?",
      turns: 3,
      about: "sam",
    });
    assert.ok(recall.hits.length > 0 && recall.hits.length <= 3);
    assert.ok(recall.hits.every((h) => h.kind === "turn"));
    assert.ok(recall.hits.some((h) => h.id === answer.id));
    const forSam = await mem.recall({ agent: "ava", query: "coat colour", about: "sam", turns: 3 });
    assert.ok(forSam.hits.length > 0);
    assert.ok(
      forSam.hits.every((h) => h.kind === "turn" && h.turn?.sessionId === answer.sessionId),
      JSON.stringify(forSam.hits),
    );
    const forKim = await mem.recall({ agent: "ava", query: "coat colour", about: "kim", turns: 3 });
    assert.ok(forKim.hits.length > 0);
    assert.ok(
      forKim.hits.every((h) => h.kind === "turn" && h.turn?.sessionId === k.id),
      JSON.stringify(forKim.hits),
    );
    await mem.close();
  });

  it("never brings back the agent's own generated answers, nor a turn a standing item was made from", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    const s = await mem.session({ agent: "ava", partner: "kim", at: "2023-05-08T13:56" });
    await s.turn("kim", "I got a puppy last week, a corgi called Mochi.");
    await s.turn("kim", "Please always call me Kimmy from now on.");
    await s.turn("ava", "I am not sure what colour Mochi's coat is.", { meta: { generated: true } });
    await s.turn("kim", "Mochi's coat is red and white.");
    await (await s.close()).done;
    await mem.idle();
    const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
    const guess = turns.find((t) => t.meta.generated === true)!;
    const recall = await mem.recall({
      agent: "ava",
      query: "What colour is Mochi's coat? What do I call Kim?",
      k: 1,
      turns: 3,
      about: "kim",
    });
    assert.ok(recall.standing?.length, "the request to be called Kimmy is a standing item");
    const standingTurns = new Set(recall.standing!.flatMap((h) => h.sourceTurns));
    const added = recall.hits.filter((h) => h.kind === "turn");
    assert.ok(added.length > 0, JSON.stringify(recall.hits));
    assert.ok(
      added.every((h) => h.id !== guess.id),
      "the agent's own generated answer is not something it was told",
    );
    assert.ok(
      added.every((h) => !standingTurns.has(h.id)),
      "a standing item's turn is shown already",
    );
    await mem.close();
  });

  it("refuses turns with turn units, and a count that is not a whole number from 0 to 100", async () => {
    const mem = await testMemlane();
    for (const bad of [{ units: "turns" as const, turns: 2 }, { turns: -1 }, { turns: 1.5 }, { turns: 101 }])
      await assert.rejects(
        mem.recall({ agent: "ava", query: "beagle", about: "sam", ...bad }),
        (e: unknown) => e instanceof InvalidInputError && e.details.field !== "about",
      );
    await mem.close();
  });
});
