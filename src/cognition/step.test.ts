import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { InvalidInputError, type MemlaneError, SchemaMismatchError } from "../core/errors.js";
import { replyStep } from "../engine/reply/reply-step.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { ScriptedChatModel } from "../models/test-doubles.js";
import { classifyPairsStep } from "../strategies/carecall/steps/classify-pairs.js";
import { WHY_CHARS } from "../strategies/kit/steps/decisions.js";
import { LlmCognition } from "./llm/llm-cognition.js";
import { OfflineCognition } from "./offline/offline-cognition.js";
import { batchItems, defineStep } from "./step.js";

interface Input {
  items: string[];
}
const upper = defineStep<Input, string[], { out: string[] }>({
  name: "test.upper",
  version: 3,
  description: "each item in capitals",
  input: z.object({ items: z.array(z.string().min(1)) }),
  output: (input) => z.object({ out: z.array(z.string()).length(input.items.length) }),
  prompt: (input) => [{ role: "user", content: input.items.join("\n") }],
  decode: (answer) => answer.out,
  offline: (input) => input.items.map((i) => i.toUpperCase()),
  batch: batchItems<Input, "items", string>("items", 2),
});

/** Answers a test.upper call by upper-casing the lines it was sent. */
const upperModel = () =>
  new ScriptedChatModel((messages, options) => {
    assert.equal(options.jsonSchema?.name, "test.upper");
    return JSON.stringify({
      out: messages
        .at(-1)!
        .content.split("\n")
        .map((l) => l.toUpperCase()),
    });
  });

describe("cognition: one run for every step", () => {
  it("batches a large input into several calls and joins the answers in order", async () => {
    const model = upperModel();
    const result = await new LlmCognition(model).run(upper, { items: ["a", "b", "c", "d", "e"] });
    assert.deepEqual(result.value, ["A", "B", "C", "D", "E"]);
    assert.equal(model.calls.length, 3);
    assert.equal(result.usage.calls, 3, "usage adds up over the batches");
  });

  it("runs the same step offline, with its time as the cost", async () => {
    const result = await new OfflineCognition(new HashEmbedder()).run(upper, { items: ["x"] });
    assert.deepEqual(result.value, ["X"]);
    assert.equal(result.model, "offline");
    assert.equal(result.usage.calls, 0);
  });

  it("refuses input that does not fit the step, naming the field", async () => {
    for (const cognition of [new LlmCognition(upperModel()), new OfflineCognition(new HashEmbedder())])
      await assert.rejects(cognition.run(upper, { items: ["ok", ""] }), (e: MemlaneError) => {
        assert.ok(e instanceof InvalidInputError);
        assert.equal(e.details.field, "items.1");
        return true;
      });
  });

  it("repairs, retries, then fails with the step's name, version and every attempt", async () => {
    const model = new ScriptedChatModel(["nope", '{"out": []}', '{"items": ["A"], "more": true}']);
    await assert.rejects(
      new LlmCognition(model, { retries: 2 }).run(upper, { items: ["a"] }),
      (e: MemlaneError) => {
        assert.ok(e instanceof SchemaMismatchError);
        assert.equal(e.details.step, "test.upper");
        assert.equal(e.details.stepVersion, 3);
        assert.equal((e.details.attempts as unknown[]).length, 3);
        return true;
      },
    );
    const repaired = new ScriptedChatModel(['```json\n{"out": ["A",],}\n```']);
    assert.deepEqual((await new LlmCognition(repaired).run(upper, { items: ["a"] })).value, ["A"]);
    // A lone key under another name is the one asked for: nothing else could be meant.
    const renamed = new ScriptedChatModel(['{"items": ["A"]}']);
    assert.deepEqual((await new LlmCognition(renamed).run(upper, { items: ["a"] })).value, ["A"]);
    // Keys spelt another way (case, "_" or "-") are the schema's.
    const respelt = new ScriptedChatModel(['{"OUT": ["A"], "note": "x"}']);
    assert.deepEqual((await new LlmCognition(respelt).run(upper, { items: ["a"] })).value, ["A"]);
  });

  it("a single item that never fits takes the step's fallback and is reported; the other items land", async () => {
    const guarded = defineStep<Input, string[], { out: string[] }>({
      ...upper,
      name: "test.upper-guarded",
      fallback: { what: "left as it was", value: (input) => input.items },
    });
    // Any call that holds "bad" answers nonsense; the others are answered.
    const model = new ScriptedChatModel((messages) => {
      const lines = messages.find((m) => m.role === "user")!.content.split("\n");
      return lines.includes("bad") ? "nonsense" : JSON.stringify({ out: lines.map((l) => l.toUpperCase()) });
    });
    const result = await new LlmCognition(model, { retries: 1 }).run(guarded, { items: ["a", "bad", "c"] });
    assert.deepEqual(result.value, ["A", "bad", "C"]);
    assert.equal(result.failures?.length, 1);
    const failure = result.failures![0]!;
    assert.equal(failure.step, "test.upper-guarded");
    assert.deepEqual(failure.input, { items: ["bad"] });
    assert.equal(failure.fallback, "left as it was");
    assert.equal(failure.code, "SCHEMA_MISMATCH");
    assert.equal((failure.attempts as unknown[]).length, 2);
    assert.equal(result.usage.calls, model.calls.length, "every call counted, the failed ones too");
    // Without a fallback the step still fails as a whole.
    await assert.rejects(
      new LlmCognition(model, { retries: 1 }).run(upper, { items: ["a", "bad"] }),
      SchemaMismatchError,
    );
  });

  it("runs a free-text step without a schema, named for the model", async () => {
    const model = new ScriptedChatModel((_m, options) => `hello from ${options.task}`);
    const input = {
      agent: "ava",
      partner: "sam",
      at: "2024-01-01T00:00:00.000Z",
      dialogue: [],
      recall: { strategy: "none", query: "", hits: [] },
      prompt: { system: "You are Ava.", messages: [{ role: "user" as const, content: "hi" }] },
    };
    const result = await new LlmCognition(model).run(replyStep, input);
    assert.equal(result.value.text, "hello from reply");
    assert.equal(model.calls[0]!.options.jsonSchema, undefined);
  });

  it("counts what earlier batches cost when a later one fails, and names the step of any error", async () => {
    let call = 0;
    const model = new ScriptedChatModel((messages) =>
      call++ === 0
        ? JSON.stringify({
            out: messages
              .at(-1)!
              .content.split("\n")
              .map((l) => l.toUpperCase()),
          })
        : "no",
    );
    await assert.rejects(
      new LlmCognition(model, { retries: 1 }).run(upper, { items: ["a", "b", "c"] }),
      (e: MemlaneError) => {
        assert.equal((e.details.usage as { calls: number }).calls, 3, "1 good batch + 2 failed tries");
        return true;
      },
    );
    const broken = {
      ...upper,
      name: "test.broken",
      offline: () => {
        throw new Error("offline bug");
      },
    };
    await assert.rejects(
      new OfflineCognition(new HashEmbedder()).run(broken, { items: ["a"] }),
      (e: Error) => {
        assert.equal((e as unknown as MemlaneError).details.step, "test.broken");
        return true;
      },
    );
  });
});

describe("weak models and batched judgements", () => {
  it("keeps the decisions a model can give: a batch that drops one is asked again in halves; a long reason is cut", async () => {
    // A weak model: with more than three pairs it forgets the last; its reasons run long.
    const model = new ScriptedChatModel((messages) => {
      const numbers = [...messages.at(-1)!.content.matchAll(/^(\d+)\. M/gm)].map((m) => Number(m[1]));
      const answered = numbers.length > 3 ? numbers.slice(0, -1) : numbers;
      return JSON.stringify({
        decisions: answered.map((pair) => ({ pair, label: "APPEND", why: "because ".repeat(80) })),
      });
    });
    const pairs = Array.from({ length: 8 }, (_, i) => ({
      memory: `Sam has hobby ${i}.`,
      summary: `Sam visited city ${i}.`,
    }));
    const result = await new LlmCognition(model, { retries: 0 }).run(classifyPairsStep, {
      about: "Sam",
      pairs,
    });
    assert.equal(result.value.length, 8, "a decision for every pair");
    assert.ok(result.value.every((d) => d.label === "APPEND"));
    assert.ok(
      result.value.every((d) => (d.rationale ?? "").length <= WHY_CHARS),
      "reasons cut to the stated limit",
    );
    // 8 failed, then 4 + 4 failed, then four halves of 2 answered: 1 + 2 + 4 calls.
    assert.equal(model.calls.length, 7);
    assert.equal(result.usage.calls, 7, "every call is counted, the failed ones too");
    assert.match(String(model.calls[0]!.messages[0]!.content), new RegExp(`at most ${WHY_CHARS} characters`));
  });
});
