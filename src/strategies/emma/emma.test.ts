import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { MemoryGraph } from "../../core/memory-graph.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { emmaScriptedSteps } from "../../testing/emma-scripted.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { emmaStrategy, linkedAround } from "./emma.js";
import { baseForm, toFirstPerson } from "./first-person.js";

/** One agent, three partners in mixed order, one recurring: a mixed-session episode. */
const episode = validateTranscript({
  agent: "mara",
  sessions: [
    {
      id: "s1",
      at: "2024-09-12",
      partner: "joel",
      meta: { roles: { mara: "chemistry teacher", joel: "student" } },
      turns: [
        { speaker: "joel", text: "I failed the chemistry mock exam." },
        { speaker: "mara", text: "I will tutor you on Tuesdays." },
      ],
    },
    {
      id: "s2",
      at: "2024-10-08",
      partner: "ines",
      turns: [
        { speaker: "ines", text: "I found a Saturday tutor for Joel." },
        { speaker: "mara", text: "Good, the chemistry mock went badly." },
      ],
    },
    {
      id: "s3",
      at: "2024-11-15",
      partner: "joel",
      turns: [{ speaker: "joel", text: "I passed the chemistry mock exam this time." }],
    },
    { id: "s4", at: "2024-12-01", partner: "pavel", turns: [{ speaker: "pavel", text: "Hello." }] },
  ],
});

describe("first-person rewrite (offline egocentric memory)", () => {
  it("turns the agent's name into I / my / me and undoes verb agreement", () => {
    assert.equal(toFirstPerson("Mara loves teaching.", "Mara", { reflexive: true }), "I love teaching.");
    assert.equal(
      toFirstPerson("Mara is tired and Mara's class is loud.", "Mara"),
      "I am tired and my class is loud.",
    );
    assert.equal(toFirstPerson("Joel thanked Mara.", "Mara"), "Joel thanked me.");
    assert.equal(toFirstPerson("Mara doesn't drive.", "Mara"), "I don't drive.");
    assert.equal(
      toFirstPerson("Mara has been teaching for years.", "Mara"),
      "I have been teaching for years.",
    );
    assert.equal(baseForm("misses"), "miss");
    assert.equal(baseForm("went"), "went");
  });
});

describe("strategy emma (LLM cognition, scripted model)", () => {
  it("keeps memories about itself and each partner, links chains to the newer end, recalls across partners", async () => {
    const chat = scriptedLlm({ byName: emmaScriptedSteps() });
    const mem = await testMemlane({ chat, strategy: "emma" });
    await mem.ingest(episode);
    const memories = await mem.memories("mara");
    const text = (about: string) =>
      memories
        .filter((m) => m.about === about)
        .map((m) => m.text)
        .sort();
    assert.deepEqual(text("mara"), [
      "I said: Good, the chemistry mock went badly.",
      "I said: I will tutor you on Tuesdays.",
    ]);
    assert.deepEqual(text("joel"), [
      "Joel told me: I failed the chemistry mock exam.",
      "Joel told me: I passed the chemistry mock exam this time.",
    ]);
    assert.ok(
      memories.every((m) => m.status === "active"),
      "EMMA supersedes nothing",
    );
    assert.equal(memories.find((m) => m.about === "ines")?.attributes.sessionOrdinal, 2);
    const name = new Map(memories.map((m) => [m.id, m.text]));
    const edges = (await mem.store.listEdges(mem.scope("mara"))).map(
      (e) => `${e.type}: ${name.get(e.from)} -> ${name.get(e.to)}`,
    );
    // The scripted linker relates memories sharing two words. In s2, my remark and Ines's news
    // are each related to s1's memory of Joel's mock (they share "chemistry mock" and "told Joel"),
    // not to each other. s3's news is related to all three, one linked group: it links once, to
    // the newest of them (not to each: no star).
    assert.deepEqual(
      edges.sort(),
      [
        "Link: Joel told me: I failed the chemistry mock exam. -> I said: Good, the chemistry mock went badly.",
        "Link: Joel told me: I failed the chemistry mock exam. -> Ines told me: I found a Saturday tutor for Joel.",
        "Link: Ines told me: I found a Saturday tutor for Joel. -> Joel told me: I passed the chemistry mock exam this time.",
      ].sort(),
    );
    // Asked while talking with Pavel about Joel: the top memory plus what is linked to it.
    const recall = await mem.recall({ agent: "mara", query: "did joel fail the chemistry mock exam?" });
    assert.equal(recall.hits[0]!.text, "Joel told me: I failed the chemistry mock exam.");
    // One hop: the memories linked to the top one come along, newest first.
    assert.deepEqual(
      recall.hits.slice(1).map((h) => [h.text, h.explanation.linked]),
      [
        ["Ines told me: I found a Saturday tutor for Joel.", 1],
        ["I said: Good, the chemistry mock went badly.", 1],
      ],
    );
    assert.equal(
      recall.timelines?.[0]?.entries.at(-1)?.text,
      "Ines told me: I found a Saturday tutor for Joel.",
    );
    // EMMA recalls the agent's whole memory by default, for Joel too: Ines's news comes along.
    const forJoelWhole = await mem.recall({
      agent: "mara",
      about: "joel",
      query: "did joel fail the chemistry mock exam?",
    });
    assert.equal(forJoelWhole.scope, "agent");
    assert.ok(forJoelWhole.hits.some((h) => h.text === "Ines told me: I found a Saturday tutor for Joel."));
    // A partner-scope recall for Joel holds only what was learned in his sessions (s1, s3): the
    // linked memories of Ines's session (her news and my remark to her) stay out, timelines too.
    const forJoel = await mem.recall({
      agent: "mara",
      about: "joel",
      scope: "partner",
      query: "did joel fail the chemistry mock exam?",
    });
    assert.equal(forJoel.scope, "partner");
    assert.equal(forJoel.hits[0]!.text, "Joel told me: I failed the chemistry mock exam.");
    assert.deepEqual(
      forJoel.hits.filter((h) => !["s1", "s3"].includes(h.sessionId ?? "")).map((h) => h.text),
      [],
    );
    const inInesSession = new Set(memories.filter((m) => m.sessionId === "s2").map((m) => m.id));
    assert.equal(inInesSession.size, 2);
    assert.ok(
      (forJoel.timelines ?? []).every((t) => t.entries.every((e) => !inInesSession.has(e.id))),
      JSON.stringify(forJoel.timelines),
    );
    // Calls: one summary per session, one link call per session with two memories to list, and
    // one standing read per session.
    const ops = await mem.store.listOperations(mem.scope("mara"));
    assert.equal(ops.filter((o) => o.type === "SUMMARIZE").length, 4);
    assert.equal(ops.filter((o) => o.type === "LINK").length, 4);
    assert.equal(chat.calls.length, 8 + 4);
    assert.ok(ops.every((o) => o.status === "done"));
    await mem.close();
  });

  it("takes k and hops: two memories, no links added", async (t) => {
    const chat = scriptedLlm({ byName: emmaScriptedSteps() });
    const mem = await testMemlane({ chat, strategies: [emmaStrategy({ k: 2, hops: 0 })], strategy: "emma" });
    t.after(() => mem.close());
    await mem.ingest(episode);
    const recall = await mem.recall({ agent: "mara", query: "did joel fail the chemistry mock exam?" });
    assert.equal(recall.hits.length, 2);
    assert.ok(recall.hits.every((h) => !h.explanation.linked));
    assert.deepEqual(recall.timelines ?? [], []);
  });

  it("tells the reply which session this is and who everyone is", async (t) => {
    const chat = scriptedLlm({ byName: emmaScriptedSteps() });
    const mem = await testMemlane({ chat, strategy: "emma" });
    t.after(() => mem.close());
    await mem.ingest(episode);
    const s = await mem.session({
      agent: "mara",
      partner: "joel",
      at: "2024-12-20",
      meta: { roles: { mara: "chemistry teacher", joel: "student" } },
    });
    await s.turn("joel", "How did the tutoring go?");
    const { recall } = await s.reply();
    assert.deepEqual(recall.setting, [
      "This is session 5 of your conversations.",
      "Your role: chemistry teacher.",
      "Joel's role: student.",
    ]);
    const strategy = emmaStrategy();
    const stored = (await mem.store.getSession({ tenant: "test", agent: "mara" }, s.id))!;
    const prompt = strategy.compose(
      {
        scope: { tenant: "test", agent: "mara" },
        session: stored,
        partner: "joel",
        dialogue: await s.turns(),
      },
      recall,
    );
    assert.match(
      prompt.system,
      /This is session 5 of your conversations\.\nYour role: chemistry teacher\.\nJoel's role: student\./,
    );
  });

  it("asks with the last turns of the session in context mode", async (t) => {
    const chat = scriptedLlm({ byName: emmaScriptedSteps() });
    const mem = await testMemlane({
      chat,
      strategies: [emmaStrategy({ query: "context", hops: 0 })],
      strategy: "emma",
    });
    t.after(() => mem.close());
    await mem.ingest(episode);
    const s = await mem.session({ agent: "mara", partner: "pavel", at: "2024-12-20" });
    await s.turn("pavel", "Any news about the Saturday tutor?");
    await s.turn("mara", "Let me think.");
    await s.turn("pavel", "Go on.");
    // The partner's last utterance says nothing; the context still finds the tutor.
    const { recall } = await s.reply();
    assert.equal(recall.hits[0]?.text, "Ines told me: I found a Saturday tutor for Joel.");
  });

  it("accepts 'nothing worth keeping' and records it", async () => {
    const chat = scriptedLlm({
      byName: { "emma.summarize": () => JSON.stringify({ aboutMe: [], aboutPartners: [] }) },
    });
    const mem = await testMemlane({ chat, strategy: "emma" });
    await mem.ingest({ agent: "mara", sessions: [episode.sessions[3]!] });
    assert.equal((await mem.memories("mara")).length, 0);
    const [op] = await mem.store.listOperations(mem.scope("mara"));
    assert.equal(op?.rationale, "nothing worth keeping");
    await mem.close();
  });

  it("records a summary that never fits its schema as a failed consolidation, keeping the turns", async () => {
    const chat = scriptedLlm({
      byName: { "emma.summarize": () => JSON.stringify({ aboutMe: [{ text: "x", turns: [99] }] }) },
    });
    const mem = await testMemlane({ chat, strategy: "emma" });
    const report = await mem.ingest({ agent: "mara", sessions: [episode.sessions[0]!] });
    assert.equal(report.failed, 1);
    assert.equal((await mem.store.listTurns(mem.scope("mara"))).length, 2);
    const failed = await mem.failures("mara");
    assert.ok(failed.some((o) => o.status === "failed" && /emma\.summarize/.test(o.error ?? "")));
    await mem.close();
  });

  it("refuses bad options with a typed error", () => {
    assert.throws(() => emmaStrategy({ k: 0 }), /emma k must be a whole number/);
    assert.throws(() => emmaStrategy({ hops: -1 }), /emma hops/);
  });
});

describe("strategy emma (offline cognition)", () => {
  it("writes first-person memories about itself, names partners, and recalls one partner's news in another's session", async (t) => {
    const mem = await testMemlane({ strategy: "emma" });
    t.after(() => mem.close());
    await mem.ingest(episode);
    const memories = await mem.memories("mara");
    const mine = memories.filter((m) => m.about === "mara");
    assert.ok(mine.length > 0);
    assert.ok(
      mine.every((m) => !/\bMara\b/.test(m.text)),
      `no third person about myself: ${mine.map((m) => m.text)}`,
    );
    assert.ok(memories.some((m) => m.about === "joel" && /Joel/.test(m.text)));
    const s = await mem.session({ agent: "mara", partner: "ines", at: "2024-12-10" });
    await s.turn("ines", "How did Joel do in the chemistry mock exam?");
    const { recall } = await s.reply();
    assert.equal(recall.hits[0]?.about, "joel");
    await mem.close();
  });
});

describe("linkedAround", () => {
  it("adds one hop both ways and the newest end of the chain", () => {
    const nodes = ["a", "b", "c", "d"].map((id, i) => ({ id, time: `2024-0${i + 1}` }));
    const edges = [
      { from: "a", to: "b", relation: "Link" },
      { from: "b", to: "c", relation: "Link" },
      { from: "c", to: "d", relation: "Link" },
    ];
    const graph = new MemoryGraph(nodes, edges);
    assert.deepEqual(linkedAround(graph, "b", 1, false), ["c", "a"]);
    assert.deepEqual(linkedAround(graph, "b", 1, true), ["c", "a", "d"]);
    assert.deepEqual(linkedAround(graph, "b", 0, false), []);
  });
});
