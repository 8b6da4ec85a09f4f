import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModelTimeoutError } from "../core/errors.js";
import { OpenAICompatibleChatModel } from "../models/openai-compatible.js";
import { spoil, startMisbehavingModel } from "./misbehaving-model.js";

const decisions = JSON.stringify({ decisions: [{ pair: 0, label: "APPEND", why: "x" }] });

describe("the misbehaving model server", () => {
  it("spoils a step's answer the way each family says", () => {
    assert.match(spoil("fenced", "carecall.classify-pairs", decisions, true), /^```json\n\{/);
    assert.match(spoil("prose-around", "carecall.classify-pairs", decisions, true), /^Sure!/);
    assert.equal(
      spoil("prose-around", "reply.reasoned", JSON.stringify({ rationale: "r", reply: "hi" }), true),
      "Rationale: r\nReply: hi",
    );
    assert.ok("results" in JSON.parse(spoil("wrong-keys", "carecall.classify-pairs", decisions, true)));
    assert.deepEqual(JSON.parse(spoil("missing-keys", "carecall.classify-pairs", decisions, true)), {
      decisions: [{ pair: 0, why: "x" }],
    });
    assert.equal(JSON.parse(spoil("one-based", "x", decisions, true)).decisions[0].pair, 1);
    assert.equal(spoil("n-hash-m", "memochat.choose-topics", '{"options": [2, 5]}', true), "2#5");
    assert.ok(spoil("truncated", "x", decisions, true).length < decisions.length);
    assert.match(spoil("refusal", "reply", "hello", false), /^I'm sorry/);
    assert.equal(spoil("empty", "reply", "hello", false), "");
    assert.equal(spoil("fenced", "reply", "hello", false), "hello", "a reply is prose already");
  });

  it("knows the step from the adapter's header and answers it plausibly", async () => {
    const server = await startMisbehavingModel({ family: "clean" });
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: server.url, model: "m" });
      const { text } = await model.generate([{ role: "user", content: "hi" }], {
        task: "creem.question",
        jsonSchema: { name: "creem.question", schema: {} },
      });
      assert.ok(JSON.parse(text).question);
      assert.deepEqual(server.stats.bySteps, { "creem.question": 1 });
    } finally {
      await server.close();
    }
  });

  it("refuses twice with Retry-After, then answers; a drip or a hang ends at the adapter's deadline", async () => {
    const limited = await startMisbehavingModel({ family: "rate-limited" });
    try {
      const model = new OpenAICompatibleChatModel({ baseURL: limited.url, model: "m", maxRetries: 2 });
      assert.equal((await model.generate([{ role: "user", content: "hi" }], { task: "reply" })).text, "ok");
      assert.equal(limited.stats.refused, 2);
    } finally {
      await limited.close();
    }
    for (const family of ["drip", "hang"] as const) {
      const server = await startMisbehavingModel({ family, dripMs: 50 });
      try {
        const model = new OpenAICompatibleChatModel({
          baseURL: server.url,
          model: "m",
          timeoutMs: 150,
          maxRetries: 0,
        });
        const started = performance.now();
        await assert.rejects(
          model.generate([{ role: "user", content: "hi" }], { task: "reply" }),
          ModelTimeoutError,
        );
        assert.ok(performance.now() - started < 1500, `${family} ended at the deadline`);
      } finally {
        await server.close();
      }
    }
  });
});
