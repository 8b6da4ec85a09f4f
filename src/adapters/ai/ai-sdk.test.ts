import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generateText, streamText } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import type { z } from "zod";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { Memlane } from "../../engine/memlane.js";
import { memlaneTools, withMemlane } from "./ai-sdk.js";

/** A model that answers `text` and keeps every prompt it was given. */
function mockModel(text: string) {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: "text", text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 5, text: 5, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

describe("AI SDK: withMemlane and memlaneTools", () => {
  let mem: Memlane;
  before(async () => {
    mem = await testMemlane({ strategy: "carecall" });
  });
  after(() => mem.close());

  it("records each exchange and recalls it before the next call", async () => {
    const acme = mem.tenant("acme");
    const first = mockModel("What a lovely name for a beagle!");
    await generateText({
      model: withMemlane(first, { mem: acme, agent: "ava", partner: "sam" }),
      prompt: "I adopted a beagle called Biscuit last week.",
    });
    // Nothing remembered yet: the first call went out without a memory note.
    assert.ok(!first.doGenerateCalls[0]!.prompt.some((m) => m.role === "system"));
    await mem.idle();
    const turns = await acme.store.listTurns(acme.scope("ava"));
    assert.deepEqual(
      turns.map((t) => [t.speaker, t.meta.generated === true]),
      [
        ["sam", false],
        ["ava", true],
      ],
      "the answer is stored as generated text",
    );
    const memories = await acme.memories("ava");
    assert.ok(
      memories.some((m) => /Biscuit/.test(m.text)),
      JSON.stringify(memories),
    );
    assert.ok(!memories.some((m) => /lovely name/.test(m.text)), "the model's words are no source of facts");

    const second = mockModel("Biscuit might like a new chew toy.");
    const { text } = await generateText({
      model: withMemlane(second, { mem: acme, agent: "ava", partner: "sam" }),
      prompt: "What should I get my dog for his birthday?",
    });
    assert.equal(text, "Biscuit might like a new chew toy.");
    const system = second.doGenerateCalls[0]!.prompt.find((m) => m.role === "system");
    assert.ok(
      system && /Biscuit/.test(String(system.content)),
      JSON.stringify(second.doGenerateCalls[0]!.prompt),
    );

    // Another tenant's wrapped model recalls nothing of acme's.
    const other = mockModel("Tell me more.");
    await generateText({
      model: withMemlane(other, { mem: mem.tenant("globex"), agent: "ava", partner: "sam", record: false }),
      prompt: "What is my dog called?",
    });
    assert.ok(!other.doGenerateCalls[0]!.prompt.some((m) => m.role === "system"));
    assert.deepEqual(await mem.tenant("globex").agents(), [], "record: false stores nothing");
  });

  it("with turns, puts the person's words that no memory holds beside the memories", async () => {
    const view = mem.tenant("turns");
    const s = await view.session({ agent: "ava", partner: "sam", at: "2023-05-08T13:56" });
    await s.turn("sam", "I finally adopted the beagle yesterday! His name is Biscuit.");
    await s.turn("ava", "Congratulations! What colour is his coat?");
    await s.turn("sam", "Mostly brown, with a white patch.");
    await (await s.close()).done;
    await mem.idle();
    const plain = mockModel("A brown beagle.");
    await generateText({
      model: withMemlane(plain, { mem: view, agent: "ava", partner: "sam", record: false }),
      prompt: "What colour is Biscuit's coat?",
    });
    const quoted = mockModel("Mostly brown.");
    await generateText({
      model: withMemlane(quoted, { mem: view, agent: "ava", partner: "sam", record: false, turns: 2 }),
      prompt: "What colour is Biscuit's coat?",
    });
    const note = (m: MockLanguageModelV3) =>
      String(m.doGenerateCalls[0]!.prompt.find((p) => p.role === "system")?.content ?? "");
    assert.doesNotMatch(note(plain), /white patch/, "no memory holds the fragment");
    assert.match(note(quoted), /Sam said: "Mostly brown, with a white patch\." \(2023-05-08\)/);
    assert.match(note(quoted), /Biscuit/);
  });

  it("gives an agent typed recall and remember tools", async () => {
    const view = mem.tenant("initech");
    const tools = memlaneTools({ mem: view, agent: "ava", partner: "kim" });
    const options = { toolCallId: "t1", messages: [] };
    const stored = await tools.remember.execute!(
      { fact: "I work as a nurse in Leeds and I adopted a beagle called Biscuit last month." },
      options,
    );
    assert.equal((stored as { closed: boolean }).closed, true);
    await mem.idle();
    const hits = (await tools.recall.execute!({ query: "Where does Kim work?" }, options)) as {
      text: string;
    }[];
    assert.ok(
      hits.some((h) => /nurse/.test(h.text)),
      JSON.stringify(hits),
    );
    assert.equal((tools.recall.inputSchema as z.ZodType).safeParse({ query: "" }).success, false);
  });

  it("records a streamed exchange once the stream has been read", async () => {
    const view = mem.tenant("umbrella");
    const usage = {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: convertArrayToReadableStream([
          { type: "text-start", id: "1" },
          { type: "text-delta", id: "1", delta: "Congratulations " },
          { type: "text-delta", id: "1", delta: "on the new job!" },
          { type: "text-end", id: "1" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ]),
      }),
    });
    const result = streamText({
      model: withMemlane(model, { mem: view, agent: "ava", partner: "sam" }),
      prompt: "I started a new job as a ward manager in Bristol.",
    });
    assert.equal(await result.text, "Congratulations on the new job!");
    await mem.idle();
    const turns = await view.store.listTurns(view.scope("ava"));
    assert.deepEqual(
      turns.map((t) => [t.speaker, t.text]),
      [
        ["sam", "I started a new job as a ward manager in Bristol."],
        ["ava", "Congratulations on the new job!"],
      ],
    );
  });

  it("remembers a multi-step exchange with tools once, with the final answer", async () => {
    const view = mem.tenant("hooli");
    const usage = {
      inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 2, text: 2, reasoning: undefined },
    };
    let step = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () =>
        step++ === 0
          ? {
              content: [
                {
                  type: "tool-call",
                  toolCallId: "c1",
                  toolName: "weather",
                  input: JSON.stringify({ city: "Leeds" }),
                },
              ],
              finishReason: { unified: "tool-calls", raw: "tool_calls" },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: "text", text: "It is sunny in Leeds, enjoy the walk!" }],
              finishReason: { unified: "stop", raw: "stop" },
              usage,
              warnings: [],
            },
    });
    const { tool, jsonSchema, stepCountIs } = await import("ai");
    const result = await generateText({
      model: withMemlane(model, { mem: view, agent: "ava", partner: "sam" }),
      prompt: "I walk my beagle in Leeds every morning. What is the weather there?",
      tools: {
        weather: tool({
          description: "the weather in a city",
          inputSchema: jsonSchema<{ city: string }>({
            type: "object",
            properties: { city: { type: "string" } },
          }),
          execute: async () => "sunny",
        }),
      },
      stopWhen: stepCountIs(3),
    });
    assert.equal(result.steps.length, 2, "the model called a tool, then answered");
    await mem.idle();
    const sessions = await view.sessions("ava");
    assert.equal(sessions.length, 1, "one exchange, one session");
    assert.deepEqual(
      (await view.turns("ava")).map((t) => [t.speaker, t.text]),
      [
        ["sam", "I walk my beagle in Leeds every morning. What is the weather there?"],
        ["ava", "It is sunny in Leeds, enjoy the walk!"],
      ],
    );
  });

  it("keeps one open session per conversation id, each call's own id winning", async () => {
    const view = mem.tenant("chats");
    const model = mockModel("Noted!");
    const wrapped = withMemlane(model, { mem: view, agent: "ava", partner: "sam", conversationId: "chat-1" });
    await generateText({ model: wrapped, prompt: "I adopted a beagle called Biscuit." });
    await generateText({ model: wrapped, prompt: "He is two years old." });
    // A call that names its own conversation goes there.
    await generateText({
      model: wrapped,
      prompt: "Different chat: I play the cello.",
      providerOptions: { memlane: { conversationId: "chat-2" } },
    });
    await mem.idle();
    const sessions = await view.sessions("ava");
    assert.deepEqual(
      sessions.map((s) => [s.id, s.status]),
      [
        ["chat-1", "open"],
        ["chat-2", "open"],
      ],
    );
    assert.deepEqual(
      (await view.turns("ava", { sessionId: "chat-1" })).map((t) => [t.speaker, t.text]),
      [
        ["sam", "I adopted a beagle called Biscuit."],
        ["ava", "Noted!"],
        ["sam", "He is two years old."],
        ["ava", "Noted!"],
      ],
    );
    // A conversation id is one partner's: Kim's exchange under Sam's is refused, nothing stored.
    await assert.rejects(
      generateText({
        model: withMemlane(model, { mem: view, agent: "ava", partner: "kim", conversationId: "chat-1" }),
        prompt: "I am Kim.",
      }),
      /not a partner of session/,
    );
    assert.equal((await view.turns("ava", { sessionId: "chat-1" })).length, 4);
    assert.ok((await view.turns("ava")).every((t) => t.speaker !== "kim"));
    // When the conversation ends, closing its session consolidates it.
    await (await view.closeSession("ava", "chat-1")).done;
    assert.ok((await view.memories("ava")).some((m) => /Biscuit/.test(m.text)));
    // Without a conversation id each exchange is a session of its own, closed at once.
    const lone = withMemlane(model, { mem: view, agent: "ben", partner: "sam" });
    await generateText({ model: lone, prompt: "I keep bees." });
    await generateText({ model: lone, prompt: "And hens." });
    await mem.idle();
    assert.deepEqual(
      (await view.sessions("ben")).map((s) => s.status),
      ["consolidated", "consolidated"],
    );
    assert.throws(
      () => withMemlane(model, { mem: view, agent: "ava", partner: "sam", conversationId: " chat" }),
      /conversationId/,
    );
  });
});
