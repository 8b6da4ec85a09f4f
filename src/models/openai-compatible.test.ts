import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, it } from "node:test";
import { z } from "zod";
import { startFakeOpenAI } from "../../test/fixtures/fake-openai-server.js";
import { ModelTimeoutError, ModelUnavailableError } from "../core/errors.js";
import { OpenAICompatibleChatModel, OpenAICompatibleEmbedder } from "./openai-compatible.js";
import { generateObject } from "./structured.js";

describe("OpenAI-compatible chat adapter (loopback server)", () => {
  it("sends the JSON schema, returns text and counts tokens", async () => {
    const server = await startFakeOpenAI({ answer: () => '{"ok": true}' });
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: server.url, model: "tiny" });
      const result = await generateObject(model, {
        name: "check",
        schema: z.object({ ok: z.boolean() }),
        messages: [{ role: "user", content: "hi" }],
        temperature: 0.1,
        maxTokens: 20,
      });
      assert.deepEqual(result.object, { ok: true });
      assert.equal(result.usage.calls, 1);
      assert.equal(result.usage.promptTokens, 42);
      assert.equal(result.usage.completionTokens, 7);
      const sent = server.requests[0]!.body as {
        response_format: { type: string; json_schema: { name: string; schema: { properties: object } } };
        temperature: number;
        max_tokens: number;
        model: string;
      };
      assert.equal(sent.response_format.type, "json_schema");
      assert.equal(sent.response_format.json_schema.name, "check");
      assert.ok("ok" in sent.response_format.json_schema.schema.properties);
      assert.equal(sent.temperature, 0.1);
      assert.equal(sent.max_tokens, 20);
      assert.equal(sent.model, "tiny");
    } finally {
      await server.close();
    }
  });

  it("falls back to plain text when the server rejects response_format, and repairs the answer", async () => {
    const server = await startFakeOpenAI({
      rejectResponseFormat: true,
      answer: () => 'Sure!\n```json\n{"ok": true,}\n```',
    });
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: server.url, model: "tiny", maxRetries: 0 });
      const result = await generateObject(model, {
        name: "check",
        schema: z.object({ ok: z.boolean() }),
        messages: [{ role: "user", content: "hi" }],
      });
      assert.deepEqual(result.object, { ok: true });
      // Second request had no response_format; later ones skip it from the start.
      await model.generate([{ role: "user", content: "again" }], { jsonSchema: { name: "x", schema: {} } });
      assert.deepEqual(
        server.requests.map((r) => "response_format" in r.body),
        [true, false, false],
      );
    } finally {
      await server.close();
    }
  });

  it("turns a server error into ModelUnavailableError", async () => {
    const server = await startFakeOpenAI({ failWith: 503 });
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: server.url, model: "tiny", maxRetries: 0 });
      await assert.rejects(model.generate([{ role: "user", content: "hi" }]), ModelUnavailableError);
    } finally {
      await server.close();
    }
  });

  it("turns a slow server into ModelTimeoutError", async () => {
    const server = await startFakeOpenAI({ delayMs: 2000 });
    try {
      const model = new OpenAICompatibleChatModel({
        baseURL: server.url,
        model: "tiny",
        maxRetries: 0,
        timeoutMs: 200,
      });
      await assert.rejects(model.generate([{ role: "user", content: "hi" }]), ModelTimeoutError);
    } finally {
      await server.close();
    }
  });

  it("turns a server that is down into ModelUnavailableError", async () => {
    // Find a free port, then close it so nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const model = new OpenAICompatibleChatModel({
      baseURL: `http://127.0.0.1:${port}/v1`,
      model: "tiny",
      maxRetries: 0,
    });
    await assert.rejects(model.generate([{ role: "user", content: "hi" }]), ModelUnavailableError);
  });
});

describe("OpenAI-compatible embedder (loopback server)", () => {
  it("keeps input order, normalises, batches and learns the dimension", async () => {
    const server = await startFakeOpenAI();
    try {
      const embedder = new OpenAICompatibleEmbedder({ baseURL: server.url, model: "emb", batchSize: 2 });
      assert.equal(embedder.dimensions, 0);
      const vectors = await embedder.embed(["a", "banana", "kiwi"]);
      assert.equal(vectors.length, 3);
      assert.equal(embedder.dimensions, 4);
      for (const v of vectors) assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-5);
      // "banana" is longer than "a": its first component is larger relative to the third.
      assert.ok(vectors[1]![0]! / vectors[1]![2]! > vectors[0]![0]! / vectors[0]![2]!);
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
});
