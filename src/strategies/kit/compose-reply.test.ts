/**
 * The reply sees the past as past: asked "still …?", the model's prompt marks the superseded
 * memory with the day it stopped holding and what replaced it, and the current one as current.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { testMemlane } from "../../testing/test-memlane.js";
import { carecallStrategy } from "../carecall/carecall.js";

const SUMMARY: Record<string, string> = {
  "I have a nasty cold.": "Sam has a nasty cold.",
  "My cold is over.": "Sam's cold is over.",
};

describe("composeReply marks what is past", () => {
  it("shows a superseded memory as past, with its end and its replacement, to a 'still' question", async () => {
    const prompts: string[] = [];
    const chat = scriptedLlm({
      summary: (_who, text) => SUMMARY[text] ?? null,
      pairLabel: (memory, summary) =>
        /nasty cold/.test(memory) && /over/.test(summary) ? "REPLACE" : "APPEND",
      reply: (system) => {
        prompts.push(system);
        return { rationale: "", reply: "Glad it is over." };
      },
    });
    // The hashing embedder is lexical: compare every pair so the double sees the cold's pair.
    const mem = await testMemlane({ chat, strategy: carecallStrategy({ minCosine: -1, candidates: 100 }) });
    try {
      const first = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00:00.000Z" });
      await first.turn("sam", "I have a nasty cold.");
      await (await first.close()).done;
      const second = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-12T10:00:00.000Z" });
      await second.turn("sam", "My cold is over.");
      await (await second.close()).done;
      const third = await mem.session({ agent: "ava", partner: "sam", at: "2024-04-02T10:00:00.000Z" });
      await third.turn("sam", "Do you still have that cold?");
      const { recall } = await third.reply();
      assert.equal(recall.temporal, "still");
      const system = prompts.at(-1)!;
      assert.match(
        system,
        /\(1 March 2024\) \[past: held until 12 March 2024; replaced by: “Sam's cold is over\.”\] Sam has a nasty cold\./,
      );
      assert.match(system, /\(12 March 2024\) \[current\] Sam's cold is over\./);
      assert.match(system, /marked \[past\] no longer holds/);
    } finally {
      await mem.close();
    }
  });
});
