import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { makeTinyGguf } from "../../test/fixtures/make-gguf.js";
import { ModelTimeoutError, ModelUnavailableError } from "../core/errors.js";
import { GgufChatModel } from "./llama-cpp.js";
import { generateObject } from "./structured.js";

describe("GGUF adapter (node-llama-cpp, a tiny model generated here)", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-gguf-"));
  const path = join(dir, "tiny.gguf");
  let model: GgufChatModel;
  before(() => {
    makeTinyGguf(path);
    model = new GgufChatModel({ modelPath: path, threads: 2, contextSize: 512 });
  });
  after(async () => {
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the file and generates text, counting tokens", async () => {
    const result = await model.generate(
      [
        { role: "system", content: "be brief" },
        { role: "user", content: "hello" },
      ],
      { maxTokens: 8 },
    );
    assert.equal(typeof result.text, "string");
    assert.equal(result.usage.calls, 1);
    assert.ok(result.usage.promptTokens > 0);
    assert.ok(result.usage.completionTokens <= 9);
    assert.equal(result.model, "gguf:tiny.gguf");
  });

  it("constrains output to the JSON schema while sampling", async () => {
    const schema = z.object({ ok: z.boolean() });
    const result = await generateObject(model, {
      name: "flag",
      schema,
      messages: [{ role: "user", content: "answer" }],
      maxTokens: 48,
      retries: 0,
    });
    assert.equal(typeof result.object.ok, "boolean");
  });

  // A grammar that asks for 400 numbers makes the tiny model generate until maxTokens: a
  // generation of some seconds here, long enough to see it stopped.
  const long = { name: "long", schema: { type: "array", minItems: 400, items: { type: "integer" } } };
  const hi = [{ role: "user" as const, content: "hi" }];

  it("stops a generation at its deadline, and the next one starts at once", async () => {
    const bounded = new GgufChatModel({ modelPath: path, threads: 2, contextSize: 512, timeoutMs: 400 });
    try {
      // Loads the file (the deadline counts from the model's turn, not the loading) and warms the
      // context up, which on a busy machine may itself take longer than the deadline.
      await bounded.generate(hi, { maxTokens: 1 }).catch(() => undefined);
      const started = performance.now();
      await assert.rejects(bounded.generate(hi, { maxTokens: 450, jsonSchema: long }), (error: unknown) => {
        assert.ok(error instanceof ModelTimeoutError);
        assert.match(error.message, /within 400 ms/);
        return true;
      });
      assert.ok(performance.now() - started < 400 + 250);
      // node-llama-cpp honours the abort: the next generation does not wait for the 450 tokens
      // (some seconds here).
      await bounded.generate(hi, { maxTokens: 1 });
      assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
    } finally {
      await bounded.close();
    }
  });

  it("ends a call at once when its caller aborts, also while it waits for its turn", async () => {
    const first = new AbortController();
    const second = new AbortController();
    const started = performance.now();
    const running = model.generate(hi, { maxTokens: 450, jsonSchema: long, signal: first.signal });
    const waiting = model.generate(hi, { maxTokens: 1, signal: second.signal });
    setTimeout(() => second.abort(new Error("not wanted")), 50);
    await assert.rejects(waiting, /not wanted/);
    assert.ok(performance.now() - started < 50 + 250);
    first.abort(new Error("stop"));
    await assert.rejects(running, /stop/);
    // The model is free again, and answers.
    const after = await model.generate(hi, { maxTokens: 1 });
    assert.equal(after.usage.calls, 1);
    assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
  });

  it("reports a missing model file as ModelUnavailableError", async () => {
    const missing = new GgufChatModel({ modelPath: join(dir, "nope.gguf"), threads: 2 });
    await assert.rejects(missing.generate([{ role: "user", content: "hi" }]), ModelUnavailableError);
  });
});
