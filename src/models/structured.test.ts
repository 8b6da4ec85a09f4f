import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { SchemaMismatchError } from "../core/errors.js";
import { extractJson } from "./json-repair.js";
import { generateObject } from "./structured.js";
import { ScriptedChatModel } from "./test-doubles.js";

describe("JSON repair", () => {
  it("strips fences and chatter, fixes trailing commas and Python literals", () => {
    assert.deepEqual(extractJson('```json\n{"a": [1, 2,],}\n```'), { a: [1, 2] });
    assert.deepEqual(extractJson('Here you go: {"a": True, "b": None} hope it helps'), { a: true, b: null });
    assert.deepEqual(extractJson("[1, 2"), [1, 2]);
    assert.deepEqual(extractJson('{"s": "cut off'), { s: "cut off" });
    assert.deepEqual(extractJson('{"s": "a } inside"}'), { s: "a } inside" });
  });

  it("refuses text with no JSON in it", () => {
    assert.throws(() => extractJson("no json here"), SyntaxError);
  });
});

describe("generateObject", () => {
  const schema = z.object({ label: z.enum(["PASS", "REPLACE"]) });

  it("retries with the error shown to the model, then succeeds", async () => {
    const model = new ScriptedChatModel(['{"label": "MAYBE"}', '{"label": "PASS"}']);
    const result = await generateObject(model, {
      name: "op",
      schema,
      messages: [{ role: "user", content: "classify" }],
    });
    assert.deepEqual(result.object, { label: "PASS" });
    assert.equal(result.attempts, 2);
    assert.equal(result.usage.calls, 2);
    const retry = model.calls[1]!.messages;
    assert.equal(retry.at(-2)!.role, "assistant");
    assert.match(retry.at(-1)!.content, /could not be used/);
    assert.match(retry.at(-1)!.content, /label/);
  });

  it("gives up after the last try with every attempt attached", async () => {
    const model = new ScriptedChatModel("not json at all");
    await assert.rejects(
      generateObject(model, { name: "op", schema, messages: [{ role: "user", content: "x" }], retries: 1 }),
      (e: unknown) => {
        assert.ok(e instanceof SchemaMismatchError);
        assert.equal((e.details.attempts as unknown[]).length, 2);
        assert.equal((e.details.usage as { calls: number }).calls, 2);
        return true;
      },
    );
    assert.equal(model.calls.length, 2);
  });
});
