import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reportedSpeech } from "../../src/cognition/offline/summarize.js";
import { testMemlane } from "../fixtures/engine.js";

const SAID = [
  "I moved to Bristol last week and I love it here.",
  "I started a new job as a ward manager on Monday.",
  "My sister Lea is getting married in June.",
  "I adopted a beagle called Biscuit yesterday.",
  "I ran my first half marathon on Sunday.",
  "I stopped eating meat last month.",
  "I bought a red bicycle for the commute.",
  "My brother Tom moved to Canada for work.",
  "I signed up for a pottery class on Thursdays.",
  "I finally finished painting the kitchen.",
];

describe("reliability: no false memories about the agent", () => {
  it("files nothing from ten sessions of offline replies as a fact about the agent", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    const start = Date.parse("2024-03-01T18:00:00Z");
    for (const [i, line] of SAID.entries()) {
      const s = await mem.session({
        agent: "ava",
        partner: "sam",
        at: new Date(start + i * 7 * 86_400_000).toISOString(),
      });
      await s.turn("sam", line);
      await s.reply();
      await s.turn("sam", "What do you remember about me?");
      const { turn } = await s.reply();
      assert.equal(turn?.meta.generated, true);
      await (await s.close()).done;
    }
    const memories = await mem.memories("ava", { status: "any" });
    assert.ok(memories.length >= SAID.length, "the partner's facts were kept");
    const aboutAva = memories.filter((m) => m.about === "ava");
    assert.deepEqual(
      aboutAva.map((m) => m.text),
      [],
      "nothing about the agent",
    );
    const quoting = memories.filter((m) => /[“”]|told (me|you)/.test(m.text));
    assert.deepEqual(
      quoting.map((m) => m.text),
      [],
      "no quotes inside memories",
    );
    await mem.close();
  });

  it("knows reported speech from a speaker's own claim", () => {
    assert.ok(reportedSpeech("You told me you moved to Bristol."));
    assert.ok(reportedSpeech("On 20 April 2024 you said: “I moved to Bristol last week and I love it.”"));
    assert.ok(!reportedSpeech("I moved to Bristol last week."));
    assert.ok(!reportedSpeech('My favourite film is "Up".'));
  });
});
