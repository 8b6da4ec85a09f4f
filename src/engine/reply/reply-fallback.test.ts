/**
 * A reply always comes back: every step on its path reads prose where prose is natural, and
 * falls back when its answer cannot be used (no memo chosen, the timeline unrefined, the offline
 * reply); each fallback is a failed STEP operation beside the REPLY operation.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ModelUnavailableError } from "../../core/errors.js";
import type { Operation } from "../../core/types.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { testMemlane } from "../../testing/test-memlane.js";
import type { Memlane } from "../memlane.js";
import { readReasoned } from "./reply-step.js";

/** Two sessions about Sam's sister, consolidated; a third open, with Sam's question in it. */
async function asked(mem: Memlane, question: string) {
  const lines = [
    ["sam", "My sister Dana lives in Lisbon."],
    ["ava", "Lisbon is lovely."],
    ["sam", "Dana teaches maths at a school there."],
    ["ava", "That sounds like a good job."],
  ] as const;
  for (const [id, at] of [
    ["s1", "2024-03-01T10:00"],
    ["s2", "2024-04-01T10:00"],
  ] as const) {
    const s = await mem.session({ id, agent: "ava", partner: "sam", at });
    for (const [speaker, text] of lines) await s.turn(speaker, text);
    await (await s.close()).done;
  }
  const s = await mem.session({ id: "s3", agent: "ava", partner: "sam", at: "2024-05-01T10:00" });
  await s.turn("sam", question);
  return s;
}

async function operations(mem: Memlane, sessionId: string): Promise<Operation[]> {
  return (await mem.store.listOperations(mem.scope("ava"), { sessionId })).filter(
    (o) => o.type === "REPLY" || o.type === "STEP",
  );
}

describe("a reply that always answers", () => {
  it("memochat: the chooser's answer in the paper's own N#M form is read, and the chosen entries reach the reply", async () => {
    const chat = scriptedLlm({ byName: { "memochat.choose-topics": () => "1#2" } });
    const mem = await testMemlane({ chat, strategy: "memochat" });
    const s = await asked(mem, "Where does my sister Dana live?");
    const { text, recall } = await s.reply();
    assert.ok(text.length > 0);
    assert.ok(recall.hits.length > 0, "entries chosen by N#M");
    assert.deepEqual(
      (await operations(mem, "s3")).map((o) => o.type),
      ["REPLY"],
    );
    await mem.close();
  });

  it("memochat: a chooser that never answers usably chooses nothing; the reply comes back and the failure is recorded", async () => {
    const chat = scriptedLlm({
      byName: { "memochat.choose-topics": () => "Let me think about which topics relate to this one." },
    });
    const mem = await testMemlane({ chat, strategy: "memochat", retries: 1 });
    const s = await asked(mem, "Where does my sister Dana live?");
    const { text, recall } = await s.reply();
    assert.ok(text.length > 0);
    assert.equal(recall.hits.length, 0, "no memo entry chosen");
    const ops = await operations(mem, "s3");
    const step = ops.find((o) => o.type === "STEP")!;
    assert.equal(step.status, "failed");
    assert.equal((step.inputs as { step: string }).step, "memochat.choose-topics");
    assert.equal((step.outputs as { attempts: unknown[] }).attempts.length, 2);
    assert.equal((step.outputs as { fallback: string }).fallback, "no memo entry chosen");
    assert.equal(step.usage.calls, 2);
    assert.match(step.error!, /SCHEMA_MISMATCH/);
    const reply = ops.find((o) => o.type === "REPLY")!;
    assert.equal(reply.status, "done");
    assert.deepEqual((reply.outputs as { fallbacks: string[] }).fallbacks, [step.id]);
    await mem.close();
  });

  it("theanine: a prose 'Rationale … Reply …' answer is the reply, its rationale kept", async () => {
    const chat = scriptedLlm({
      byName: {
        "reply.reasoned": () =>
          "Rationale: Sam asked about Dana; the timeline says she lives in Lisbon.\n\nReply: Dana is still in Lisbon, isn't she?",
      },
    });
    const mem = await testMemlane({ chat, strategy: "theanine", retries: 1 });
    const s = await asked(mem, "Where does my sister Dana live?");
    const { text } = await s.reply();
    assert.equal(text, "Dana is still in Lisbon, isn't she?");
    const reply = (await operations(mem, "s3")).find((o) => o.type === "REPLY")!;
    assert.match(reply.rationale!, /timeline says she lives in Lisbon/);
    await mem.close();
  });

  it("theanine: a refinement that is never JSON leaves the timelines unrefined; the reply comes back and the failure is recorded", async () => {
    const chat = scriptedLlm({
      byName: { "theanine.refine-timeline": () => "I'm sorry, but I can't help with that request." },
    });
    const mem = await testMemlane({ chat, strategy: "theanine", retries: 1 });
    const s = await asked(mem, "Where does my sister Dana live?");
    const { text, recall } = await s.reply();
    assert.ok(text.length > 0);
    assert.ok(recall.timelines!.length > 0);
    for (const t of recall.timelines!)
      assert.equal(t.refined!.length, t.entries.length, "one dated line per entry, as it was");
    const steps = (await operations(mem, "s3")).filter((o) => o.type === "STEP");
    assert.equal(steps.length, recall.timelines!.length);
    assert.ok(steps.every((o) => (o.inputs as { step: string }).step === "theanine.refine-timeline"));
    await mem.close();
  });

  it("an empty answer is asked for again, then the offline reply stands in", async () => {
    const chat = scriptedLlm({ byName: { reply: () => "" } });
    const mem = await testMemlane({ chat, strategy: "carecall", retries: 1 });
    const s = await asked(mem, "Where does my sister Dana live?");
    const before = chat.calls.length;
    const { text } = await s.reply();
    assert.ok(text.length > 0);
    assert.equal(chat.calls.length - before, 2, "the first try and one retry");
    const step = (await operations(mem, "s3")).find((o) => o.type === "STEP")!;
    assert.equal((step.inputs as { step: string }).step, "reply");
    assert.equal((step.outputs as { fallback: string }).fallback, "the offline reply");
    await mem.close();
  });

  it("a model that cannot be reached still gets the person a reply (offline), recorded as a failed step", async () => {
    const chat = scriptedLlm({
      byName: {
        reply: () => {
          throw new ModelUnavailableError("the model server is down");
        },
      },
    });
    const mem = await testMemlane({ chat, strategy: "carecall" });
    const s = await asked(mem, "Where does my sister Dana live?");
    const { text } = await s.reply();
    assert.ok(text.length > 0);
    const step = (await operations(mem, "s3")).find((o) => o.type === "STEP")!;
    assert.match(step.error!, /MODEL_UNAVAILABLE/);
    await mem.close();
  });

  it("reads a reasoned answer in prose: labelled, marked up, or none at all", () => {
    assert.deepEqual(readReasoned("**Rationale:** she moved.\n**Reply:** How is Porto?"), {
      rationale: "she moved.",
      reply: "How is Porto?",
    });
    assert.deepEqual(readReasoned("Rationale: x. Reply: y"), { rationale: "x.", reply: "y" });
    assert.deepEqual(readReasoned("How is Porto?"), { rationale: "", reply: "How is Porto?" });
    assert.deepEqual(readReasoned('{"reasoning": "she moved", "response": "How is Porto?"}'), {
      rationale: "she moved",
      reply: "How is Porto?",
    });
    assert.equal(readReasoned(""), undefined);
    assert.equal(readReasoned('{"rationale": "x"'), undefined);
  });
});
