import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmCognition } from "../../../cognition/llm/llm-cognition.js";
import { estimateMessageTokens } from "../../../models/chat-model.js";
import { scriptedLlm } from "../../../testing/scripted-llm.js";
import { classifyPairsStep } from "./classify-pairs.js";

describe("pair batches sized to the model's window", () => {
  it("cuts carecall's pair batch so no prompt passes an 8K window, and every label stays with its pair", async () => {
    const long = (n: number, what: string) =>
      `Sam ${what} number ${n}, ${"and told the whole story of it ".repeat(12)}`;
    const input = {
      about: "Sam",
      pairs: Array.from({ length: 40 }, (_, n) => ({
        memory: long(n, "kept memory"),
        summary: long(n, "new summary"),
      })),
    };
    const label = (memory: string) => (Number(/number (\d+)/.exec(memory)![1]) % 3 === 0 ? "PASS" : "APPEND");
    const chat = scriptedLlm({ pairLabel: label }, { contextWindow: 8192 });
    const result = await new LlmCognition(chat).run(classifyPairsStep, input);
    // The engine keeps a quarter of the window (at most 2,048 tokens) for the answer.
    const budget = { contextWindow: 8192, answerTokens: 2048 };
    assert.ok(chat.calls.length > 1);
    for (const call of chat.calls) {
      const tokens = estimateMessageTokens(call.messages);
      assert.ok(tokens <= budget.contextWindow - budget.answerTokens, `a prompt of ${tokens} tokens`);
    }
    assert.deepEqual(
      result.value.map((d) => d.label),
      input.pairs.map((p) => label(p.memory)),
    );
  });
});
