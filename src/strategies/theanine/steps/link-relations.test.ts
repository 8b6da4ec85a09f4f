import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmCognition } from "../../../cognition/llm/llm-cognition.js";
import { estimateMessageTokens } from "../../../models/chat-model.js";
import { scriptedLlm } from "../../../testing/scripted-llm.js";
import { linkRelationsStep } from "./link-relations.js";

/** A line of conversation a memory was drawn from, long as real ones are. */
const line = (n: number, side: string) =>
  `${side} line ${n}: we talked at length about the garden, the new fence, the neighbours' dog and the plans for the summer holidays by the lake`.padEnd(
    230,
    ".",
  );

/** Forty pairs whose relation the double reads from the older memory's number: even "Cause", odd "Changed". */
const pairs = Array.from({ length: 40 }, (_, n) => ({
  older: {
    text: `Memory ${n}: Sam planted roses.`,
    at: "2024-03-01",
    source: [0, 1, 2].map((k) => line(k, `A${n}`)),
  },
  newer: {
    text: `Memory ${n}: Sam's roses bloomed.`,
    at: "2024-06-01",
    source: [0, 1, 2].map((k) => line(k, `B${n}`)),
  },
}));

const relationOf = (older: string) =>
  Number(/Memory (\d+)/.exec(older)![1]) % 2 === 0 ? "Cause" : "Changed";

describe("link batches sized to the model's window", () => {
  it("cuts theanine's link batch so no prompt passes a 4K window, and every decision stays with its pair", async () => {
    const chat = scriptedLlm({ relation: relationOf }, { contextWindow: 4096 });
    const result = await new LlmCognition(chat).run(linkRelationsStep, { about: "Sam", pairs });
    // The engine keeps a quarter of the window (at most 2,048 tokens) for the answer.
    const budget = { contextWindow: 4096, answerTokens: 1024 };
    for (const call of chat.calls) {
      const tokens = estimateMessageTokens(call.messages);
      assert.ok(tokens <= budget.contextWindow - budget.answerTokens, `a prompt of ${tokens} tokens`);
    }
    assert.deepEqual(
      result.value.map((d) => d.relation),
      pairs.map((p) => relationOf(p.older.text)),
    );
  });

  it("leaves a pair too large for the window unlinked, with a warning, and links the others", async () => {
    const chat = scriptedLlm({ relation: relationOf }, { contextWindow: 1024 });
    const huge = {
      ...pairs[1]!,
      newer: { ...pairs[1]!.newer, text: `Memory 1: ${"Sam wrote a very long letter. ".repeat(300)}` },
    };
    const result = await new LlmCognition(chat).run(linkRelationsStep, {
      about: "Sam",
      pairs: [pairs[0]!, huge, pairs[2]!],
    });
    assert.deepEqual(
      result.value.map((d) => d.relation),
      ["Cause", "None", "Cause"],
    );
    assert.match(result.value[1]!.rationale, /left out/);
    assert.equal(result.warnings?.[0]?.kind, "left-out");
    assert.equal(result.warnings?.[0]?.items, 1);
  });
});
