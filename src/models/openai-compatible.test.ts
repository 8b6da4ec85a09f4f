import assert from "node:assert/strict";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
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

/**
 * A loopback server whose every request is handled by `behave`; it counts requests and the
 * sockets it saw closed, which is how a test knows the client gave an answer up for good.
 */
async function startServer(behave: (res: ServerResponse, path: string) => void) {
  let requests = 0;
  let closed = 0;
  const server = createHttpServer((req, res) => {
    requests++;
    req.resume();
    req.socket.once("close", () => closed++);
    behave(res, (req.url ?? "").replace(/^\/v1/, ""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    closed: () => closed,
    /** Waits until `n` sockets have closed, for at most `ms`. */
    async closedAtLeast(n: number, ms = 1000) {
      const until = performance.now() + ms;
      while (closed < n && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
      return closed >= n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Headers at once, then one byte every 200 ms for as long as the socket is open. */
function drip(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  res.write("{");
  const timer = setInterval(() => res.write(" "), 200);
  res.once("close", () => clearInterval(timer));
}

function completion(res: ServerResponse, text: string) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "c",
      object: "chat.completion",
      created: 0,
      model: "tiny",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    }),
  );
}

/** The Timeout handles alive in this process. */
function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

const hi = [{ role: "user" as const, content: "hi" }];
/** What a deadline may be overrun by on a loaded two-core machine. */
const MARGIN_MS = 250;

describe("OpenAI-compatible deadline (covers the whole answer)", () => {
  it("fails with ModelTimeoutError when the body drips, and closes the socket", async () => {
    const server = await startServer(drip);
    try {
      const before = timers();
      const model = new OpenAICompatibleChatModel({
        baseURL: server.url,
        model: "tiny",
        maxRetries: 0,
        timeoutMs: 300,
      });
      const started = performance.now();
      await assert.rejects(model.generate(hi), (error: unknown) => {
        assert.ok(error instanceof ModelTimeoutError);
        assert.match(error.message, /did not answer in time: no complete answer within 300 ms/);
        assert.equal(error.details.timeoutMs, 300);
        return true;
      });
      const took = performance.now() - started;
      assert.ok(took >= 290 && took < 300 + MARGIN_MS, `took ${took} ms`);
      assert.ok(await server.closedAtLeast(1), "the client closed its socket");
      assert.equal(timers(), before, "no timer of the call is left");
    } finally {
      await server.close();
    }
  });

  it("fails with ModelTimeoutError when the server never answers", async () => {
    const server = await startServer(() => undefined);
    try {
      const model = new OpenAICompatibleChatModel({
        baseURL: server.url,
        model: "tiny",
        maxRetries: 0,
        timeoutMs: 300,
      });
      const started = performance.now();
      await assert.rejects(model.generate(hi), ModelTimeoutError);
      assert.ok(performance.now() - started < 300 + MARGIN_MS);
      assert.ok(await server.closedAtLeast(1), "the client closed its socket");
    } finally {
      await server.close();
    }
  });

  it("answers when the whole answer comes in time", async () => {
    const server = await startServer((res) => setTimeout(() => completion(res, "in time"), 50));
    try {
      const model = new OpenAICompatibleChatModel({
        baseURL: server.url,
        model: "tiny",
        maxRetries: 0,
        timeoutMs: 1000,
      });
      const result = await model.generate(hi);
      assert.equal(result.text, "in time");
    } finally {
      await server.close();
    }
  });

  it("gives every try its own deadline, so a call with retries is bounded", async () => {
    const server = await startServer(drip);
    try {
      const model = new OpenAICompatibleChatModel({
        baseURL: server.url,
        model: "tiny",
        maxRetries: 1,
        timeoutMs: 200,
      });
      const started = performance.now();
      await assert.rejects(model.generate(hi), ModelTimeoutError);
      const took = performance.now() - started;
      // Two tries of 200 ms each, so at least 400 ms: one deadline shared by both would end at 200.
      // The body never ends, so any bound shows the deadline holds; it is loose because a loaded
      // machine stretches the wait between tries (at most 500 ms) and the sockets' teardown.
      assert.ok(took >= 2 * 200 && took < 5_000, `took ${took} ms`);
      assert.equal(server.requests(), 2);
      assert.ok(await server.closedAtLeast(2), "both sockets closed");
    } finally {
      await server.close();
    }
  });

  it("cancels at once when the caller aborts, with the caller's reason", async () => {
    const server = await startServer(drip);
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: server.url, model: "tiny", timeoutMs: 10_000 });
      const caller = new AbortController();
      const reason = new Error("the user went away");
      const started = performance.now();
      setTimeout(() => caller.abort(reason), 100);
      await assert.rejects(model.generate(hi, { signal: caller.signal }), (error) => error === reason);
      assert.ok(performance.now() - started < 100 + MARGIN_MS);
      assert.equal(server.requests(), 1, "an abort is not retried");
      assert.ok(await server.closedAtLeast(1), "the client closed its socket");
    } finally {
      await server.close();
    }
  });

  it("bounds the embedder's requests the same way", async () => {
    const server = await startServer(drip);
    try {
      const embedder = new OpenAICompatibleEmbedder({
        baseURL: server.url,
        model: "emb",
        maxRetries: 0,
        timeoutMs: 200,
      });
      const started = performance.now();
      await assert.rejects(embedder.embed(["a"]), ModelTimeoutError);
      assert.ok(performance.now() - started < 200 + MARGIN_MS);
      assert.ok(await server.closedAtLeast(1), "the client closed its socket");
    } finally {
      await server.close();
    }
  });
});
