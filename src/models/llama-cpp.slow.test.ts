import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { makeTinyGguf } from "../../test/fixtures/make-gguf.js";
import { ModelUnavailableError } from "../core/errors.js";
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

  it("reports a missing model file as ModelUnavailableError", async () => {
    const missing = new GgufChatModel({ modelPath: join(dir, "nope.gguf"), threads: 2 });
    await assert.rejects(missing.generate([{ role: "user", content: "hi" }]), ModelUnavailableError);
  });
});
