/**
 * The `history` baseline: every past turn, as far as the reply's budget
 * allows. When the conversation is longer than the budget, what is kept must be the newest turns
 * (shown oldest first), not the oldest: a reply built on sessions 0–28 of 60 is wrong.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { historyStrategy } from "./history.js";

describe("strategy history", () => {
  it("keeps the newest sessions when the budget is short, shown oldest first", async () => {
    const mem = await testMemlane({ strategy: "history" });
    try {
      const sessions = Array.from({ length: 60 }, (_, k) => ({
        id: `s${k}`,
        at: `2024-01-01T10:00:00Z`.replace(
          "01-01",
          `${String(1 + Math.floor(k / 28)).padStart(2, "0")}-${String(1 + (k % 28)).padStart(2, "0")}`,
        ),
        partner: "sam",
        turns: [
          {
            speaker: "sam",
            text: `Session ${k}: ${"a long story about the garden and the weather. ".repeat(6)}`,
          },
        ],
      }));
      await mem.ingest({ agent: "ava", sessions });
      const live = await mem.session({ agent: "ava", partner: "sam", at: "2024-04-01T10:00:00Z" });
      await live.turn("sam", "What did I tell you last time?");
      const strategy = historyStrategy();
      const scope = { tenant: "test", agent: "ava" };
      const stored = (await mem.store.getSession(scope, live.id))!;
      const recall = await strategy.recall({
        ...({} as Parameters<typeof strategy.recall>[0]),
        scope,
        store: mem.store,
        query: "What did I tell you last time?",
        session: stored,
        filter: { about: "sam" },
      } as Parameters<typeof strategy.recall>[0]);
      const prompt = strategy.compose(
        { scope, session: stored, partner: "sam", dialogue: await live.turns() },
        recall,
      );
      assert.match(prompt.system, /Session 59:/, "the newest session is in the prompt");
      assert.doesNotMatch(prompt.system, /Session 0:/, "the oldest is what the budget cuts");
      const shown = [...prompt.system.matchAll(/Session (\d+):/g)].map((m) => Number(m[1]));
      assert.deepEqual(
        shown,
        [...shown].sort((a, b) => a - b),
        "shown oldest first",
      );
      assert.equal(shown.at(-1), 59);
    } finally {
      await mem.close();
    }
  });
});
