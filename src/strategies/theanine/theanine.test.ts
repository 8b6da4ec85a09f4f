import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { runTeafarm } from "../../../lab/eval/teafarm/teafarm.js";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { ScriptedChatModel } from "../../models/test-doubles.js";
import { GraphCache } from "../../retrieval/graph-cache.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { theanineStrategy } from "./theanine.js";

const demo = validateTranscript(
  JSON.parse(readFileSync(new URL("../../../data/demo-conversation.json", import.meta.url), "utf8")),
);

/** Three sessions about one thread, so links are predictable. */
const story = validateTranscript({
  agent: "ava",
  sessions: [
    { id: "s1", at: "2024-03-01", partner: "sam", turns: [{ speaker: "sam", text: "I live in Leeds." }] },
    { id: "s2", at: "2024-04-01", partner: "sam", turns: [{ speaker: "sam", text: "I moved to Bristol." }] },
    {
      id: "s3",
      at: "2024-05-01",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I love my Bristol flat." },
        { speaker: "sam", text: "I play chess." },
      ],
    },
  ],
});
const relation = (older: string, newer: string) =>
  newer.includes("chess")
    ? "None"
    : newer.includes("moved")
      ? "Changed"
      : older.includes("moved")
        ? "React"
        : "SameTopic";

describe("strategy theanine (LLM cognition, scripted model)", () => {
  it("links each new memory to the most recent related memory per component, older to newer", async () => {
    const chat = scriptedLlm({ relation });
    const mem = await testMemlane({ chat, strategy: "theanine" });
    await mem.ingest(story);
    const memories = await mem.memories("ava");
    const byText = (t: string) => memories.find((m) => m.text.includes(t))!;
    assert.equal(memories.length, 4, "nothing is superseded: old memories stay");
    const edges = await mem.store.listEdges(mem.scope("ava"));
    const described = edges
      .map(
        (e) =>
          `${memories.find((m) => m.id === e.from)!.text} -${e.type}-> ${memories.find((m) => m.id === e.to)!.text}`,
      )
      .sort();
    // "flat" relates to both older memories, which are one component: it links to the most recent.
    assert.deepEqual(described, [
      "Sam said: I live in Leeds. -Changed-> Sam said: I moved to Bristol.",
      "Sam said: I moved to Bristol. -React-> Sam said: I love my Bristol flat.",
    ]);
    const chain = (await mem.timeline("ava", byText("flat").id)).chain;
    assert.deepEqual(
      chain.map((e) => e.relation),
      [null, "Changed", "React"],
    );
    assert.equal(byText("chess") && (await mem.timeline("ava", byText("chess").id)).chain.length, 1);
    // Calls per session: a summary and a standing read each, and one batched relation call for
    // sessions 2 and 3.
    assert.equal(chat.calls.length, 5 + 3);
    await mem.close();
  });

  it("recalls timelines, refines them, reasons and keeps the rationale", async () => {
    const chat = scriptedLlm({ relation, refine: (t) => [`refined: ${t.split("\n").length} steps`] });
    const mem = await testMemlane({ chat, strategy: "theanine" });
    await mem.ingest(story);
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-06-01" });
    await s.turn("sam", "Do you remember my flat in Bristol?");
    const before = chat.calls.length;
    const { text, recall } = await s.reply();
    assert.equal(text, "As far as I remember, that changed.");
    assert.ok(recall.timelines!.length >= 1 && recall.timelines!.length <= 3);
    const flat = recall.timelines!.find((t) => t.entries.at(-1)!.text.includes("flat"))!;
    assert.deepEqual(
      flat.entries.map((e) => e.relation),
      [null, "Changed", "React"],
    );
    assert.match(flat.refined![0]!, /refined: 3 steps/);
    // Nothing here was superseded: every entry is marked current, and the refinement is shown so.
    assert.deepEqual(
      flat.entries.map((e) => e.status),
      ["current", "current", "current"],
    );
    const refinePrompt = chat.calls.find((c) => /Timeline:/.test(c.messages.at(-1)!.content))!;
    assert.match(refinePrompt.messages.at(-1)!.content, /^1\. .*\[current\]: Sam said: I live in Leeds\./m);
    const replyPrompt = chat.calls.at(-1)!.messages[0]!.content;
    assert.match(replyPrompt, /How these events developed/);
    assert.match(replyPrompt, /refined: 3 steps/);
    assert.equal(
      chat.calls.length - before,
      recall.timelines!.length + 1,
      "one refinement per timeline, then the reply",
    );
    const op = (await mem.store.listOperations(mem.scope("ava"))).find((o) => o.type === "REPLY")!;
    assert.equal(op.rationale, "the timeline says what changed");
    assert.equal(op.usage.calls, recall.timelines!.length + 1, "refinement calls are counted on the reply");
    await mem.close();
  });

  it("retries an unknown relation label, then keeps the pairs apart as failed items the sessions do not wait for", async () => {
    const bad = new ScriptedChatModel((messages) =>
      messages[0]!.content.includes("worth knowing next time")
        ? JSON.stringify({ statements: [{ about: "sam", text: "Sam said something.", turns: [0] }] })
        : JSON.stringify({ decisions: [{ pair: 0, label: "Likes", why: "?" }] }),
    );
    const mem = await testMemlane({ chat: bad, strategy: "theanine", retries: 1 });
    const report = await mem.ingest(story);
    assert.equal(report.failed, 0, "every session lands");
    assert.equal((await mem.memories("ava")).length, 3);
    const failures = await mem.failures("ava");
    assert.ok(failures.length >= 2, "sessions 2 and 3 had pairs to link");
    for (const f of failures) {
      assert.equal(f.type, "STEP");
      assert.match(f.error!, /SCHEMA_MISMATCH/);
      assert.equal((f.inputs as { step: string }).step, "theanine.link-relations");
    }
    assert.equal((await mem.store.listEdges(mem.scope("ava"))).length, 0, "nothing linked on a guess");
    // Asked again, the model still cannot answer: the items stay failed.
    const again = await mem.retry("ava");
    assert.deepEqual(
      again.steps.map((s) => s.ok),
      failures.map(() => false),
    );
    await mem.close();
  });

  it("retry asks a pair left unlinked again; answered, the two memories are linked", async () => {
    let cooperate = false;
    const chat = new ScriptedChatModel((messages) =>
      messages[0]!.content.includes("worth knowing next time")
        ? JSON.stringify({ statements: [{ about: "sam", text: "Sam said something.", turns: [0] }] })
        : JSON.stringify({ decisions: [{ pair: 0, label: cooperate ? "Changed" : "Likes", why: "?" }] }),
    );
    const mem = await testMemlane({ chat, strategy: "theanine", retries: 0 });
    await mem.ingest(story);
    const failed = await mem.failures("ava");
    assert.ok(failed.length > 0);
    cooperate = true;
    const report = await mem.retry("ava");
    assert.ok(report.steps.length === failed.length && report.steps.every((s) => s.ok));
    const edges = await mem.store.listEdges(mem.scope("ava"));
    assert.equal(edges.length, failed.length, "one link per pair answered");
    assert.ok(edges.every((e) => e.type === "Changed" && e.attributes.answeredOnRetry === true));
    assert.deepEqual(await mem.failures("ava"), []);
    await mem.close();
  });

  it("ablation: similarity-only linking needs no relation call", async () => {
    const chat = scriptedLlm();
    const mem = await testMemlane({ chat, strategy: theanineStrategy({ relationAware: false }) });
    await mem.ingest(story);
    assert.equal(chat.calls.length, 3 + 3, "summaries and standing reads only");
    const edges = await mem.store.listEdges(mem.scope("ava"));
    assert.ok(
      edges.length > 0 &&
        edges.every((e) => e.type === "SameTopic" && e.attributes.ablation === "similarity-only"),
    );
    await mem.close();
  });
});

describe("strategy theanine (offline cognition, bundled encoder)", () => {
  it("builds multi-session chains on the demo conversation and answers with them", async () => {
    const mem = await testMemlane({ strategy: "theanine", embedder: "use" });
    await mem.ingest(demo);
    const memories = await mem.memories("ava");
    const cold = memories.find((m) => /nasty cold/.test(m.text))!;
    const chain = (await mem.timeline("ava", cold.id)).chain;
    assert.ok(chain.length >= 2, "the cold has a later development");
    assert.equal(chain[1]!.relation, "Changed");
    assert.match(chain[1]!.text, /recovered/);
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-06-01" });
    await s.turn("sam", "How did Sam do in the half marathon?");
    const { text } = await s.reply();
    assert.match(text, /ran the Bristol half marathon/);
    assert.match(text, /How it developed/);
    await mem.close();
  });
});

describe("TeaFarm (scripted model)", () => {
  it("asks counterfactual questions in a new session and scores the replies", async () => {
    const chat = scriptedLlm({
      relation,
      reply: (system) => ({
        rationale: "latest state first",
        reply: /Bristol/.test(system) ? "You live in Bristol now, not Leeds." : "Leeds is lovely.",
      }),
      questions: () => [
        {
          question: "How is life in Leeds these days?",
          fact: "Sam moved to Bristol.",
          answer: "Sam lives in Bristol.",
        },
        { question: "Still playing the violin?", fact: "Sam plays chess.", answer: "Sam plays chess." },
      ],
    });
    const report = await runTeafarm({
      transcript: story,
      chat,
      // The scripted model also writes and judges the exam here, on purpose.
      judge: chat,
      embedder: new HashEmbedder(),
      strategy: theanineStrategy(),
      questions: 2,
    });
    assert.equal(report.items.length, 2);
    assert.equal(report.items[0]!.correct, true);
    assert.match(report.items[0]!.reply, /Bristol/);
    assert.equal(report.correctRate, report.items.filter((i) => i.correct).length / 2);
    assert.ok(report.usage.calls > 5);
    const qPrompt = chat.calls.find((c) => c.messages[0]!.content.includes("counterfactual"))!;
    // The writer reads the sessions' own summaries, numbered, not the strategy's memory.
    assert.match(
      qPrompt.messages[1]!.content,
      /Session 1 \(1 March 2024\):\n\[0\] Sam said: I live in Leeds\./,
    );
    assert.match(qPrompt.messages[1]!.content, /Session 3/);
  });

  it("reuses the loaded graph until its memories or edges change", async () => {
    const mem = await testMemlane({ strategy: "theanine" });
    await mem.ingest(story);
    const scope = mem.scope("ava");
    const graphs = new GraphCache(mem.store);
    const first = await graphs.load(scope, "theanine");
    assert.equal(await graphs.load(scope, "theanine"), first);
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-06-01" });
    await s.turn("sam", "I started a pottery class in Bristol.");
    // A session and a turn move the scope's version but touch no memory or edge: the agent loop
    // writes a turn before nearly every recall, and remaking the graph then grew with the scope.
    assert.equal(await graphs.load(scope, "theanine"), first);
    await (await s.close()).done;
    const second = await graphs.load(scope, "theanine");
    assert.notEqual(second, first);
    assert.ok(second.memories.size > first.memories.size);
    await mem.close();
  });
});

describe("theanine timeline sampling", () => {
  it("samples the same timelines from the same conversation in every run (ids are random)", async () => {
    // Leeds links to both later memories, so the timeline through it has two ways on.
    const branching = validateTranscript({
      agent: "ava",
      sessions: [
        { id: "s1", at: "2024-03-01", partner: "sam", turns: [{ speaker: "sam", text: "I live in Leeds." }] },
        {
          id: "s2",
          at: "2024-04-01",
          partner: "sam",
          turns: [
            { speaker: "sam", text: "I moved from Leeds to Bristol." },
            { speaker: "sam", text: "Leeds had a chess club I loved." },
          ],
        },
      ],
    });
    const runs: string[] = [];
    for (let i = 0; i < 8; i++) {
      const mem = await testMemlane({
        chat: scriptedLlm({ relation: () => "SameTopic" }),
        strategy: "theanine",
      });
      await mem.ingest(branching);
      // One memory retrieved (the first), so its sampled timeline is not one another hit also gives.
      const { timelines } = await mem.recall({ agent: "ava", about: "sam", query: "I live in Leeds", k: 1 });
      runs.push(JSON.stringify(timelines!.map((t) => t.entries.map((e) => e.text))));
      await mem.close();
    }
    assert.ok(runs[0]!.includes("I live in Leeds") && runs[0]!.includes("],[") === false);
    assert.match(runs[0]!, /Bristol|chess/, "the timeline goes on from the first memory");
    assert.equal(new Set(runs).size, 1, runs.join("\n"));
  });
});
