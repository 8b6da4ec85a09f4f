import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { InvalidInputError } from "../../core/errors.js";
import { openMemlane } from "../../engine/open-memlane.js";
import { estimateMessageTokens, estimateTokens } from "../../models/chat-model.js";
import { GgufChatModel } from "../../models/llama-cpp.js";
import { OpenAICompatibleChatModel } from "../../models/openai-compatible.js";
import { ScriptedChatModel } from "../../models/test-doubles.js";
import { batchItems, chunkItems, defineStep } from "../step.js";
import { LlmCognition } from "./llm-cognition.js";
import { fitParts, promptBudget } from "./prompt-budget.js";

type Input = { items: string[] };

/** A step over numbered items whose answer is the items back, upper-cased, one per item. */
function itemsStep(batching: "count" | "chunk" | "none", leftOut = true) {
  return defineStep<Input, string[], { out: string[] }>({
    name: "test.items",
    version: 1,
    description: "items back, upper-cased",
    input: z.object({ items: z.array(z.string()) }),
    output: (i) => z.object({ out: z.array(z.string()).length(i.items.length) }),
    prompt: (i) => [
      { role: "system", content: "Answer each item upper-cased. ".repeat(20) },
      { role: "user", content: i.items.map((t, n) => `${n}. ${t}`).join("\n") },
    ],
    decode: (a) => a.out,
    offline: (i) => i.items.map((t) => t.toUpperCase()),
    ...(batching === "count"
      ? {
          batch: batchItems<Input, "items", string>(
            "items",
            40,
            undefined,
            leftOut ? () => "(left out)" : undefined,
          ),
        }
      : batching === "chunk"
        ? { batch: chunkItems<Input, "items", string>("items") }
        : {}),
  });
}

/** A double that answers the items step from its prompt, and records every prompt's estimate. */
function counting(contextWindow?: number) {
  return new ScriptedChatModel(
    (messages) => {
      const lines = [...messages.at(-1)!.content.matchAll(/^\d+\. (.*)$/gm)].map((m) => m[1]!.toUpperCase());
      return JSON.stringify({ out: lines });
    },
    "counting",
    { contextWindow },
  );
}

const sent = (model: ScriptedChatModel) => model.calls.map((c) => estimateMessageTokens(c.messages));

describe("prompt budget", () => {
  it("keeps a quarter of the window (at most 2,048) or the step's maxTokens for the answer, and a tenth for the estimate", () => {
    const step = itemsStep("none");
    assert.deepEqual(promptBudget(step, 8192), {
      contextWindow: 8192,
      answerTokens: 2048,
      promptTokens: 5324,
    });
    assert.deepEqual(promptBudget(step, 2048), {
      contextWindow: 2048,
      answerTokens: 512,
      promptTokens: 1331,
    });
    assert.equal(promptBudget({ ...step, maxTokens: 64 }, 4096).answerTokens, 64);
  });

  it("cuts a batched input so every prompt fits, in order, and joins the answers", async () => {
    const model = counting(2048);
    const items = Array.from({ length: 120 }, (_, i) => `item ${i} ${"x".repeat(120)}`);
    const result = await new LlmCognition(model).run(itemsStep("count"), { items });
    const budget = promptBudget(itemsStep("count"), 2048);
    assert.ok(model.calls.length > 3, `cut into ${model.calls.length} calls`);
    for (const tokens of sent(model)) assert.ok(tokens <= budget.promptTokens, `${tokens} tokens sent`);
    assert.deepEqual(
      result.value,
      items.map((t) => t.toUpperCase()),
    );
    assert.equal(result.warnings, undefined);
  });

  it("sends a chunked input whole when it fits, and in parts when it does not", async () => {
    const small = counting(8192);
    await new LlmCognition(small).run(itemsStep("chunk"), { items: ["a", "b", "c"] });
    assert.equal(small.calls.length, 1);
    const large = counting(1024);
    const items = Array.from({ length: 60 }, (_, i) => `line ${i} ${"y".repeat(80)}`);
    const result = await new LlmCognition(large).run(itemsStep("chunk"), { items });
    assert.ok(large.calls.length > 1);
    assert.equal(result.value.length, 60);
  });

  it("leaves out an item too large alone, keeps the others in place, and warns", async () => {
    const model = counting(1024);
    const warned: unknown[] = [];
    const items = ["small one", "z".repeat(20_000), "small two"];
    const result = await new LlmCognition(model, { onWarning: (w) => warned.push(w) }).run(
      itemsStep("count"),
      {
        items,
      },
    );
    assert.deepEqual(result.value, ["SMALL ONE", "(left out)", "SMALL TWO"]);
    assert.equal(result.warnings?.length, 1);
    const [warning] = result.warnings!;
    assert.equal(warning!.kind, "left-out");
    assert.equal(warning!.items, 1);
    assert.equal(warning!.step, "test.items");
    assert.equal(warning!.contextWindow, 1024);
    assert.match(warning!.message, /left out 1 item too large for the model's window of 1024 tokens/);
    assert.deepEqual(warned, result.warnings);
    for (const tokens of sent(model))
      assert.ok(tokens <= promptBudget(itemsStep("count"), 1024).promptTokens);
  });

  it("sends an unbatched prompt over the window whole, with a warning", async () => {
    const model = counting(1024);
    const result = await new LlmCognition(model).run(itemsStep("none"), { items: ["w".repeat(20_000)] });
    assert.equal(model.calls.length, 1);
    assert.equal(result.warnings?.[0]?.kind, "over-window");
  });

  it("does not size prompts for a model that declares no window", () => {
    const step = itemsStep("count");
    const fitted = fitParts(step, { items: ["a".repeat(100_000)] }, 40, null);
    assert.equal(fitted.parts.length, 1);
    assert.deepEqual(fitted.warnings, []);
  });

  it("keeps a retry within the budget however long the failed answer", async () => {
    let call = 0;
    const model = new ScriptedChatModel(
      () => (call++ === 0 ? `not json ${"q".repeat(40_000)}` : JSON.stringify({ out: ["A"] })),
      "retry",
      { contextWindow: 2048 },
    );
    await new LlmCognition(model).run(itemsStep("none"), { items: ["a"] });
    const budget = promptBudget(itemsStep("none"), 2048);
    assert.equal(model.calls.length, 2);
    for (const tokens of sent(model)) assert.ok(tokens <= budget.promptTokens, `${tokens} tokens sent`);
  });
});

describe("context window option", () => {
  it("refuses a window that is not a whole number of at least 256 tokens", () => {
    for (const bad of [0, -5, 1.5, 100, Number.NaN])
      assert.throws(
        () =>
          new OpenAICompatibleChatModel({ baseURL: "http://127.0.0.1:1/v1", model: "m", contextWindow: bad }),
        (e: unknown) => e instanceof InvalidInputError && /contextWindow/.test((e as Error).message),
      );
    assert.throws(() => new LlmCognition(counting(), { contextWindow: 0 }), InvalidInputError);
  });

  it("is refused by openMemlane before anything opens, for an endpoint and for a GGUF file", async () => {
    await assert.rejects(
      openMemlane({
        store: ":memory:",
        embedder: "hash",
        chat: { baseURL: "http://127.0.0.1:1/v1", model: "m", contextWindow: -1 },
      }),
      (e: unknown) =>
        e instanceof InvalidInputError && (e as InvalidInputError).details.field === "contextWindow",
    );
    await assert.rejects(
      openMemlane({ store: ":memory:", embedder: "hash", chat: { gguf: "tiny.gguf", contextSize: 2.5 } }),
      (e: unknown) =>
        e instanceof InvalidInputError && (e as InvalidInputError).details.field === "contextSize",
    );
  });

  it("is the context a GGUF model is loaded with (2,048 unless asked)", () => {
    assert.equal(new GgufChatModel({ modelPath: "tiny.gguf" }).contextWindow, 2048);
    assert.equal(new GgufChatModel({ modelPath: "tiny.gguf", contextSize: 8192 }).contextWindow, 8192);
  });

  it("defaults to 4,096 for an unknown model and to the published length for a known hosted family", () => {
    const at = (model: string) => new OpenAICompatibleChatModel({ baseURL: "http://127.0.0.1:1/v1", model });
    assert.equal(at("llama3.1:8b").contextWindow, 4096);
    assert.equal(at("gpt-4o-mini").contextWindow, 128_000);
    assert.equal(
      new OpenAICompatibleChatModel({
        baseURL: "http://127.0.0.1:1/v1",
        model: "gpt-4o",
        contextWindow: 8192,
      }).contextWindow,
      8192,
    );
  });
});

describe("token estimate", () => {
  it("counts about four Latin characters a token, and more tokens a character in other scripts", () => {
    assert.equal(estimateTokens("a".repeat(400)), 100);
    assert.equal(estimateTokens("д".repeat(400)), 200);
    assert.equal(estimateTokens("猫".repeat(400)), 400);
  });
});
