import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { LlmCognition } from "../../cognition/llm/llm-cognition.js";
import { type ChatMessage, estimateMessageTokens } from "../../models/chat-model.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { memochatStrategy } from "./memochat.js";
import { numberedLines, partitionProblem, writeMemoStep } from "./steps/write-memo.js";

describe("memochat's prompts carry dates", () => {
  it("dates the memo's lines, the chooser's utterance and entries, and the reply, so relative times can be read", async () => {
    const prompts: Record<string, ChatMessage[][]> = {};
    const keep = (name: string, messages: ChatMessage[]) => {
      prompts[name] ??= [];
      prompts[name].push(structuredClone(messages));
    };
    const llm = scriptedLlm({
      byName: {
        "memochat.write-memo": (messages) => {
          keep("write", messages);
          const n = [...messages.at(-1)!.content.matchAll(/^\(line (\d+)\)/gm)].length;
          return JSON.stringify({
            memos: [
              { topic: "beagle", summary: "Sam adopted a beagle on 29 February 2024.", start: 1, end: n },
            ],
          });
        },
        "memochat.choose-topics": (messages) => {
          keep("choose", messages);
          return JSON.stringify({
            options: [Number(/^\((\d+)\) beagle/m.exec(messages.at(-1)!.content)![1])],
          });
        },
        reply: (messages) => {
          keep("reply", messages);
          return "Biscuit must be settling in by now.";
        },
      },
    });
    const mem = await testMemlane({ chat: llm, strategy: memochatStrategy({ limits: { lines: 2 } }) });
    const first = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await first.turn("sam", "Yesterday I adopted a beagle called Biscuit.");
    await first.turn("ava", "How lovely, a beagle!");
    await first.turn("sam", "He chewed my slippers already.");
    await (await first.close()).done;
    const second = await mem.session({ agent: "ava", partner: "sam", at: "2024-04-10T09:00" });
    await second.turn("sam", "Remember the dog I got last month?");
    await second.reply();

    const write = prompts.write![0]!.map((m) => m.content).join("\n");
    assert.match(write, /Conversation of 1 March 2024/);
    assert.match(write, /into dates/);
    const choose = prompts.choose![0]!.map((m) => m.content).join("\n");
    assert.match(choose, /Today is 10 April 2024/);
    assert.match(choose, /^\(\d+\) beagle\. .*\[1 March 2024\]$/m);
    const reply = prompts.reply![0]![0]!.content;
    assert.match(reply, /on 10 April 2024/);
    assert.match(reply, /Topic: beagle \(talked about on 1 March 2024\)/);
    await mem.close();
  });

  it("marks a buffer line said on another day than the one before it", async () => {
    const shown = numberedLines(
      [
        { speaker: "sam", text: "Hello.", at: "2024-03-01T23:50" },
        { speaker: "ava", text: "Hi.", at: "2024-03-01T23:55" },
        { speaker: "sam", text: "It is past midnight.", at: "2024-03-02T00:05" },
      ],
      "1 March 2024",
    );
    assert.deepEqual(shown.split("\n"), [
      "(line 1) Sam: Hello.",
      "(line 2) Ava: Hi.",
      "(line 3) [2 March 2024] Sam: It is past midnight.",
    ]);
  });
});

describe("memochat's memo writing sized to the model's window", () => {
  it("writes a buffer too long for a 2K model in parts whose ranges still split the whole buffer", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      speaker: i % 2 ? "ava" : "sam",
      text: `Line ${i + 1}: ${"we went on about the allotment, the tomatoes and the slugs that ate them. ".repeat(2)}`,
    }));
    const llm = scriptedLlm({}, { contextWindow: 2048 });
    const result = await new LlmCognition(llm).run(writeMemoStep, { agent: "ava", lines });
    assert.ok(llm.calls.length > 1, `${llm.calls.length} calls`);
    for (const call of llm.calls)
      assert.ok(
        estimateMessageTokens(call.messages) <= 2048 - 1024,
        "within the window, less the answer's room",
      );
    assert.equal(partitionProblem(result.value, lines.length), null);
  });
});
