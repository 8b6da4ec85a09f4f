import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../test/fixtures/engine.js";
import { InvalidInputError, type MemlaneError, UnsupportedError } from "../core/errors.js";
import { noneStrategy } from "../strategies/baselines/none.js";

/** Rejects with an InvalidInputError whose details name `field`. */
async function rejectsNaming(promise: Promise<unknown>, field: string): Promise<void> {
  await assert.rejects(promise, (error: MemlaneError) => {
    assert.ok(error instanceof InvalidInputError, String(error));
    assert.equal(error.details.field, field, error.message);
    return true;
  });
}

describe("engine: every public call validates its input and stores nothing when it is bad", () => {
  it("names the field of a bad session, turn, recall or forget", async () => {
    const mem = await testMemlane();
    await rejectsNaming(mem.session({ agent: "", partner: "sam" }), "agent");
    await rejectsNaming(mem.session({ agent: "ava" }), "partner");
    await rejectsNaming(mem.session({ agent: "ava", partner: "sam " }), "partner");
    await rejectsNaming(mem.session({ agent: "ava", partners: ["sam", ""] }), "partners.1");
    await rejectsNaming(mem.session({ agent: "ava", partner: "sam", perTurn: "later" as "wait" }), "perTurn");
    assert.deepEqual(await mem.agents(), [], "no session was stored");
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await rejectsNaming(s.turn("sam", "   "), "text");
    await rejectsNaming(s.turn("eve", "hello"), "speaker");
    assert.equal((await s.turns()).length, 0);
    await rejectsNaming(mem.recall({ agent: "ava", about: "sam", query: "" }), "query");
    await rejectsNaming(mem.recall({ agent: "ava", about: "sam", query: "pets", k: 0 }), "k");
    await rejectsNaming(
      mem.recall({ agent: "ava", about: "sam", query: "pets", units: "words" as "turns" }),
      "units",
    );
    await rejectsNaming(mem.forget({ agent: "ava" }), "about");
    await rejectsNaming(mem.forget({ agent: "ava", memoryIds: [] }), "memoryIds");
    await rejectsNaming(mem.session({ agent: "ava", partner: "sam", at: "2024-13-45" }), "at");
    await rejectsNaming(s.turn("sam", "hello", { at: "yesterday-ish" }), "at");
    await rejectsNaming(mem.recall({ agent: "ava", about: "sam", query: "pets", now: "soon" }), "now");
    await rejectsNaming(
      mem.recall({ agent: "ava", about: "sam", query: "pets", strategy: "nope" }),
      "strategy",
    );
    await rejectsNaming(mem.resume("ava", s.id, { perTurn: "later" as "wait" }), "perTurn");
    await rejectsNaming(mem.resume("ava", ""), "sessionId");
    await rejectsNaming(mem.history("ava", ""), "memoryId");
    await rejectsNaming(mem.retry("ava", ""), "sessionId");
    await rejectsNaming(
      mem.conversation({ agents: ["ava", "ben"], strategies: { sam: "carecall" } }),
      "strategies.sam",
    );
    await rejectsNaming(s.leave("nobody"), "partner");
    assert.equal((await s.turns()).length, 0, "still no turn stored");
    await mem.close();
  });

  it("ingests a transcript parsed from JSON as it is, and refuses a broken one whole", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    // Straight from JSON.parse: no meta anywhere, a numeric session id.
    const raw = JSON.parse(
      '{"agent":"ava","sessions":[{"id":1,"at":"2024-03-02T18:00","partner":"sam","turns":[{"speaker":"sam","text":"I adopted a beagle called Biscuit."}]}]}',
    );
    const report = await mem.ingest(raw);
    assert.equal(report.ingested, 1);
    await rejectsNaming(
      mem.ingest({
        agent: "ava",
        sessions: [{ id: "2", at: "2024-04-01", partner: "sam", turns: [{ text: "x" }] }],
      }),
      "sessions.0.turns.0.speaker",
    );
    assert.equal(
      (await mem.store.listSessions(mem.scope("ava"))).length,
      1,
      "nothing of the bad file was stored",
    );
    await mem.close();
  });

  it("refuses ports of another specification version", async () => {
    const old = { ...noneStrategy(), specificationVersion: "v0" } as unknown as ReturnType<
      typeof noneStrategy
    >;
    await assert.rejects(testMemlane({ strategies: [old] }), UnsupportedError);
    await assert.rejects(
      testMemlane({ cognition: { specificationVersion: "v0", name: "old" } as never }),
      UnsupportedError,
    );
    await assert.rejects(
      testMemlane({
        embedder: { specificationVersion: "v2", name: "x", dimensions: 3, embed: async () => [] } as never,
      }),
      UnsupportedError,
    );
  });

  it("finds a registered strategy again after a restart", async () => {
    const mine = { ...noneStrategy(), name: "mine", description: "a user's own" };
    const mem = await testMemlane({ strategies: [mine], strategy: "mine" });
    const s = await mem.session({ agent: "ava", partner: "sam" });
    await s.turn("sam", "hello");
    assert.equal(s.session.strategy, "mine");
    assert.equal((await (await s.close()).done)?.state, "done");
    await mem.close();
    await assert.rejects(testMemlane({ strategy: "unknown-one" }), InvalidInputError);
  });
});
