import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import type { ChatMessage } from "../../models/chat-model.js";
import { ScriptedChatModel } from "../../models/test-doubles.js";
import { carecallStrategy } from "./carecall.js";

/** Sessions whose summaries the scripted model writes: one statement per partner turn. */
const transcript = validateTranscript({
  agent: "ava",
  sessions: [
    {
      id: "s1",
      at: "2024-03-01",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I live in Leeds." },
        { speaker: "sam", text: "I have a cold." },
        { speaker: "sam", text: "My back hurts but I have not seen a doctor." },
        { speaker: "sam", text: "I have a dog." },
      ],
    },
    {
      id: "s2",
      at: "2024-04-01",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I live in Bristol." },
        { speaker: "sam", text: "My cold is gone." },
        { speaker: "sam", text: "I get physiotherapy now." },
        { speaker: "sam", text: "I have a dog, still." },
      ],
    },
  ],
});

const SUMMARY: Record<string, string> = {
  "I live in Leeds.": "Sam lives in Leeds.",
  "I have a cold.": "Sam has a cold.",
  "My back hurts but I have not seen a doctor.": "Sam's back hurts but Sam has not seen a doctor.",
  "I have a dog.": "Sam has a dog.",
  "I live in Bristol.": "Sam lives in Bristol.",
  "My cold is gone.": "Sam's cold is gone.",
  "I get physiotherapy now.": "Sam gets physiotherapy.",
  "I have a dog, still.": "Sam has a dog.",
  "My knee is sore.": "Sam's knee is sore.",
  "I quit running for good.": "Sam quit running for good.",
  "My dog Rex is a beagle.": "Sam's dog Rex is a beagle.",
  "Rex won't stop barking at the cat.": "Rex won't stop barking at the cat.",
};
const LABEL: Record<string, string> = {
  "Sam lives in Leeds.|Sam lives in Bristol.": "REPLACE",
  "Sam has a cold.|Sam's cold is gone.": "DELETE",
  "Sam's back hurts but Sam has not seen a doctor.|Sam gets physiotherapy.": "FUSION",
  "Sam has a dog.|Sam has a dog.": "PASS",
  // The operator judges the knee a finished state; the stop itself must still be remembered.
  "Sam's knee is sore.|Sam quit running for good.": "DELETE",
  // A denied stop closes nothing, whatever the operator thinks.
  "Sam's dog Rex is a beagle.|Rex won't stop barking at the cat.": "DELETE",
};

/** Sessions of Sam's turns alone, for the scripted model to summarize line by line. */
function samSays(sessions: { id: string; at: string; turns: string[] }[]) {
  return validateTranscript({
    agent: "ava",
    sessions: sessions.map((x) => ({
      ...x,
      partner: "sam",
      turns: x.turns.map((text) => ({ speaker: "sam", text })),
    })),
  });
}

/** The hashing test embedder is lexical; compare every pair so the model double sees them all. */
const everyPair = () => carecallStrategy({ minCosine: -1, candidates: 100 });

/** A model double that plays each thinking step from the prompt it is given. */
function scriptedModel(options: { badPairCountOnce?: boolean } = {}) {
  let spoiled = false;
  return new ScriptedChatModel((messages: ChatMessage[]) => {
    const system = messages[0]!.content;
    const user = messages.find((m) => m.role === "user")!.content;
    if (system.includes("worth knowing next time")) {
      const lines = user.split("\n").filter((l) => /^\[\d+\] Sam:/.test(l));
      return JSON.stringify({
        statements: lines.map((l) => ({
          about: "sam",
          text: SUMMARY[l.replace(/^\[\d+\] Sam: /, "")],
          turns: [Number(/^\[(\d+)\]/.exec(l)![1])],
        })),
      });
    }
    if (system.includes("Decide what the memory keeps")) {
      const pairs = [...user.matchAll(/^(\d+)\. M(?: \([^)]*\))?: (.*)\n {3}S(?: \([^)]*\))?: (.*)$/gm)].map(
        (m) => ({
          pair: Number(m[1]),
          label: LABEL[`${m[2]}|${m[3]}`] ?? "APPEND",
          why: "scripted",
        }),
      );
      if (options.badPairCountOnce && !spoiled) {
        spoiled = true;
        return JSON.stringify({ decisions: pairs.slice(1) });
      }
      return JSON.stringify({ decisions: pairs });
    }
    if (system.includes("Merge two statements"))
      return JSON.stringify({ sentence: "Sam gets physiotherapy for back pain." });
    // Every consolidation also reads the session for standing instructions: none here.
    if (system.includes("standing instructions and preferences")) return JSON.stringify({ items: [] });
    return "ok";
  });
}

describe("strategy carecall (LLM cognition, scripted model)", () => {
  it("applies REPLACE, DELETE, FUSION and PASS without erasing anything", async () => {
    const chat = scriptedModel();
    const mem = await testMemlane({ chat, strategy: everyPair() });
    const report = await mem.ingest(transcript);
    assert.equal(report.failed, 0);
    const active = (await mem.memories("ava")).map((m) => m.text).sort();
    assert.deepEqual(active, [
      "Sam gets physiotherapy for back pain.",
      "Sam has a dog.",
      "Sam lives in Bristol.",
    ]);
    const all = await mem.memories("ava", { status: "any" });
    const leeds = all.find((m) => m.text === "Sam lives in Leeds.")!;
    assert.equal(leeds.status, "superseded");
    assert.equal(leeds.invalidAt, "2024-04-01T00:00:00.000Z");
    const history = await mem.history("ava", leeds.id);
    assert.deepEqual(
      history.replacedBy.map((m) => m.text),
      ["Sam lives in Bristol."],
    );
    assert.ok(history.operations.some((o) => o.type === "REPLACE" && o.rationale === "scripted"));
    // DELETE: the cold and its closing sentence are both retired, and linked.
    const cold = all.find((m) => m.text === "Sam has a cold.")!;
    const closing = all.find((m) => m.text === "Sam's cold is gone.")!;
    assert.equal(cold.status, "superseded");
    assert.equal(closing.status, "superseded");
    assert.equal(closing.attributes.retired, "DELETE");
    assert.deepEqual(
      (await mem.history("ava", cold.id)).replacedBy.map((m) => m.id),
      [closing.id],
    );
    // FUSION: the old memory points to the fused one.
    const back = all.find((m) => m.text.startsWith("Sam's back hurts"))!;
    const backHistory = await mem.history("ava", back.id);
    assert.deepEqual(
      backHistory.replacedBy.map((m) => m.text),
      ["Sam gets physiotherapy for back pain."],
    );
    assert.equal(backHistory.edges[0]!.type, "FusedInto");
    assert.deepEqual(
      (await mem.timeline("ava", back.id)).memories.map((m) => m.text),
      ["Sam's back hurts but Sam has not seen a doctor.", "Sam gets physiotherapy for back pain."],
    );
    // PASS: the repeated dog statement was absorbed, not duplicated.
    assert.equal(all.filter((m) => m.text === "Sam has a dog.").length, 1);
    const ops = await mem.store.listOperations(mem.scope("ava"));
    const classify = ops.filter((o) => o.type === "CLASSIFY");
    assert.equal(classify.length, 1, "session 2's pairs went to the model in one batch");
    assert.ok((classify[0]!.outputs as { decisions: unknown[] }).decisions.length >= 4);
    assert.ok(
      ops.some((o) => o.type === "PASS") &&
        ops.some((o) => o.type === "DELETE") &&
        ops.some((o) => o.type === "FUSION"),
    );
    // Model calls: session 1 summary; session 2 summary, one classification batch, one fusion;
    // and each session read once for standing instructions.
    assert.equal(chat.calls.length, 4 + 2);
    await mem.close();
  });

  it("a stop is remembered: the operator's DELETE of another memory retires that memory, not the stop", async () => {
    const mem = await testMemlane({ chat: scriptedModel(), strategy: everyPair() });
    const report = await mem.ingest(
      samSays([
        { id: "k1", at: "2024-03-01", turns: ["My knee is sore."] },
        { id: "k2", at: "2024-04-01", turns: ["I quit running for good."] },
      ]),
    );
    assert.equal(report.failed, 0);
    const all = await mem.memories("ava", { status: "any" });
    assert.equal(all.find((m) => m.text === "Sam quit running for good.")?.status, "active");
    assert.equal(all.find((m) => m.text === "Sam's knee is sore.")?.status, "superseded");
    const ops = await mem.store.listOperations(mem.scope("ava"));
    assert.ok(
      ops.some(
        (o) =>
          o.type === "REPLACE" &&
          /DELETE, taken as REPLACE: the statement tells of a stop/.test(o.rationale ?? ""),
      ),
      ops.map((o) => `${o.type} ${o.rationale}`).join("\n"),
    );
    await mem.close();
  });

  it("a denied stop closes nothing: the operator's DELETE is taken as APPEND, and both stay", async () => {
    const mem = await testMemlane({ chat: scriptedModel(), strategy: everyPair() });
    await mem.ingest(
      samSays([
        { id: "r1", at: "2024-03-01", turns: ["My dog Rex is a beagle."] },
        { id: "r2", at: "2024-04-01", turns: ["Rex won't stop barking at the cat."] },
      ]),
    );
    const active = (await mem.memories("ava")).map((m) => m.text).sort();
    assert.deepEqual(active, ["Rex won't stop barking at the cat.", "Sam's dog Rex is a beagle."]);
    const ops = await mem.store.listOperations(mem.scope("ava"));
    assert.ok(ops.some((o) => o.type === "APPEND" && /denies a stop/.test(o.rationale ?? "")));
    await mem.close();
  });

  it("retries a batch that skips a pair; a pair that never fits is kept apart and recorded, and the session lands", async () => {
    const retried = scriptedModel({ badPairCountOnce: true });
    const mem = await testMemlane({ chat: retried, strategy: everyPair(), retries: 1 });
    assert.equal((await mem.ingest(transcript)).failed, 0);
    // Two summaries, a batch, its retry and a fusion; and two standing reads.
    assert.equal(retried.calls.length, 5 + 2);
    await mem.close();

    const broken = new ScriptedChatModel((messages: ChatMessage[]) =>
      messages[0]!.content.includes("worth knowing next time")
        ? JSON.stringify({ statements: [{ about: "sam", text: "Sam lives in Leeds.", turns: [0] }] })
        : JSON.stringify({ decisions: [{ pair: 0, label: "MAYBE" }] }),
    );
    const failing = await testMemlane({ chat: broken, strategy: everyPair(), retries: 1 });
    const report = await failing.ingest(transcript);
    assert.equal(report.failed, 0, "both sessions land");
    const failures = await failing.failures("ava");
    assert.equal(failures.length, 1, "session 2's one pair");
    assert.equal(failures[0]!.type, "STEP");
    assert.equal(failures[0]!.sessionId, "s2");
    assert.match(failures[0]!.error!, /SCHEMA_MISMATCH/);
    assert.equal((failures[0]!.outputs as { fallback: string }).fallback, "both kept (APPEND)");
    assert.ok(
      (await failing.memories("ava")).some((m) => m.text === "Sam lives in Leeds."),
      "the session's memories landed",
    );
    await failing.close();
  });

  it("retry asks a failed pair again; answered, its operation is done and holds the answer", async () => {
    let cooperate = false;
    const chat = new ScriptedChatModel((messages: ChatMessage[]) =>
      messages[0]!.content.includes("worth knowing next time")
        ? JSON.stringify({ statements: [{ about: "sam", text: "Sam lives in Leeds.", turns: [0] }] })
        : cooperate
          ? JSON.stringify({ decisions: [{ pair: 0, label: "PASS", why: "the same fact" }] })
          : JSON.stringify({ decisions: [{ pair: 0, label: "MAYBE" }] }),
    );
    const mem = await testMemlane({ chat, strategy: everyPair(), retries: 1 });
    await mem.ingest(transcript);
    const [failed] = await mem.failures("ava");
    assert.equal(failed!.type, "STEP");
    cooperate = true;
    const report = await mem.retry("ava");
    assert.deepEqual(report.steps, [{ op: failed!.id, ok: true }]);
    assert.deepEqual(await mem.failures("ava"), []);
    const done = await mem.store.getOperation(mem.scope("ava"), failed!.id);
    assert.equal(done!.status, "done");
    assert.deepEqual((done!.outputs as { answer: { label: string }[] }).answer[0]!.label, "PASS");
    await mem.close();
  });
});

describe("strategy carecall: a pair decided on retry", () => {
  it("lands the late decision: REPLACE retires the memory for the sentence", async () => {
    let cooperate = false;
    const chat = new ScriptedChatModel((messages: ChatMessage[]) => {
      const user = messages.find((m) => m.role === "user")!.content;
      if (messages[0]!.content.includes("worth knowing next time"))
        return JSON.stringify({
          statements: [
            {
              about: "sam",
              text: /hives/.test(user) ? "Sam sold the hives in May." : "Sam keeps bees.",
              turns: [0],
            },
          ],
        });
      return cooperate
        ? JSON.stringify({ decisions: [{ pair: 0, label: "REPLACE", why: "the bees are gone" }] })
        : "I cannot decide.";
    });
    const bees = validateTranscript({
      agent: "ava",
      sessions: [
        { id: "s1", at: "2024-03-01", partner: "sam", turns: [{ speaker: "sam", text: "I keep bees." }] },
        {
          id: "s2",
          at: "2024-06-01",
          partner: "sam",
          turns: [{ speaker: "sam", text: "I sold the hives." }],
        },
      ],
    });
    const mem = await testMemlane({ chat, strategy: everyPair(), retries: 0 });
    await mem.ingest(bees);
    assert.deepEqual((await mem.memories("ava")).map((m) => m.text).sort(), [
      "Sam keeps bees.",
      "Sam sold the hives in May.",
    ]);
    cooperate = true;
    assert.ok((await mem.retry("ava")).steps.every((x) => x.ok));
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam sold the hives in May."],
    );
    const history = await mem.memories("ava", { status: "any" });
    assert.equal(history.find((m) => m.text === "Sam keeps bees.")!.status, "superseded");
    await mem.close();
  });
});

describe("strategy carecall (offline cognition, bundled encoder)", () => {
  it("keeps the demo conversation current: a move supersedes, a recovery closes the illness", async () => {
    const demo = JSON.parse(
      readFileSync(new URL("../../../data/demo-conversation.json", import.meta.url), "utf8"),
    );
    const mem = await testMemlane({ strategy: "carecall", embedder: "use" });
    await mem.ingest(validateTranscript(demo));
    const active = (await mem.memories("ava")).map((m) => m.text);
    const all = await mem.memories("ava", { status: "any" });
    const leeds = all.find((m) => /lives in a small flat in Leeds/.test(m.text))!;
    assert.equal(leeds.status, "superseded");
    assert.match((await mem.history("ava", leeds.id)).replacedBy[0]!.text, /moved to Bristol/);
    const cold = all.find((m) => /nasty cold/.test(m.text))!;
    assert.equal(cold.status, "superseded");
    assert.ok(active.some((t) => /moved to Bristol/.test(t)));
    assert.ok(active.some((t) => /not vegetarian anymore/.test(t)));
    assert.ok(!active.some((t) => /has been vegetarian/.test(t)));
    assert.ok(
      active.some((t) => /Spanish/.test(t)),
      "unrelated facts are kept (APPEND)",
    );
    await mem.close();
  });

  it("a memory said again whole within more words gives way to the fuller statement, kept as its past", async () => {
    for (const strategy of ["carecall", "creem"] as const) {
      const mem = await testMemlane({ strategy, embedder: "use" });
      const session = (id: string, at: string, text: string) => ({
        id,
        at,
        partner: "rosa",
        turns: [
          { speaker: "rosa", text },
          { speaker: "ava", text: "Thanks for telling me." },
        ],
      });
      await mem.ingest(
        validateTranscript({
          agent: "ava",
          sessions: [
            session("s1", "2024-03-01", "I am the chairperson of the Elmsworth Residents' Association."),
            session(
              "s2",
              "2024-03-20",
              "As chairperson of the Elmsworth Residents' Association, I chair the annual meeting in May.",
            ),
          ],
        }),
      );
      const active = (await mem.memories("ava")).filter((m) => /Elmsworth/.test(m.text));
      assert.equal(active.length, 1, `${strategy}: ${active.map((m) => m.text).join(" | ")}`);
      assert.match(active[0]!.text, /annual meeting/);
      const past = (await mem.memories("ava", { status: "any" })).filter(
        (m) => /Elmsworth/.test(m.text) && m.status === "superseded",
      );
      assert.ok(past.length >= 1, `${strategy}: the first telling is kept as past`);
      await mem.close();
    }
  });
});
