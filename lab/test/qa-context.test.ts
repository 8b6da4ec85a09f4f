/**
 * `eval qa`'s context marks the past as the reply does: a "still …?" question's recall shows the
 * superseded memory as past, with the day it stopped holding and what replaced it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { carecallStrategy } from "../../src/strategies/carecall/carecall.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { testMemlane } from "../../src/testing/test-memlane.js";
import { recallContext } from "../eval/qa/context.js";

const SUMMARY: Record<string, string> = {
  "I have a nasty cold.": "Sam has a nasty cold.",
  "My cold is over.": "Sam's cold is over.",
};

describe("eval qa's recall context", () => {
  it("marks a superseded memory past, with its end and replacement, and the current one current", async () => {
    const chat = scriptedLlm({
      summary: (_who, text) => SUMMARY[text] ?? null,
      pairLabel: (memory, summary) =>
        /nasty cold/.test(memory) && /over/.test(summary) ? "REPLACE" : "APPEND",
    });
    const mem = await testMemlane({ chat, strategy: carecallStrategy({ minCosine: -1, candidates: 100 }) });
    try {
      for (const [at, text] of [
        ["2024-03-01T10:00:00.000Z", "I have a nasty cold."],
        ["2024-03-12T10:00:00.000Z", "My cold is over."],
      ] as const) {
        const s = await mem.session({ agent: "ava", partner: "sam", at });
        await s.turn("sam", text);
        await (await s.close()).done;
      }
      const recall = await mem.recall({
        agent: "ava",
        about: "sam",
        query: "Does Sam still have that cold?",
      });
      const context = recallContext(recall);
      assert.match(
        context,
        /\(1 March 2024\) \[past: held until 12 March 2024; replaced by: “Sam's cold is over\.”\] Sam has a nasty cold\./,
        context,
      );
      assert.match(context, /\(12 March 2024\) \[current\] Sam's cold is over\./, context);
    } finally {
      await mem.close();
    }
  });

  it("marks each raw timeline entry current or past", () => {
    const context = recallContext({
      strategy: "theanine",
      query: "q",
      hits: [],
      timelines: [
        {
          through: "m2",
          entries: [
            {
              id: "m1",
              text: "Sam has a nasty cold.",
              at: "2024-03-01T10:00:00.000Z",
              relation: null,
              status: "past",
              invalidAt: "2024-03-12T10:00:00.000Z",
            },
            {
              id: "m2",
              text: "Sam's cold is over.",
              at: "2024-03-12T10:00:00.000Z",
              relation: "Changed",
              status: "current",
            },
          ],
        },
      ],
    });
    assert.match(context, /1 March 2024 \[past: held until 12 March 2024\]: Sam has a nasty cold\./);
    assert.match(context, /12 March 2024 \(Changed\) \[current\]: Sam's cold is over\./);
  });
});
