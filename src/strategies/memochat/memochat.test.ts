import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { LlmCognition } from "../../cognition/llm/llm-cognition.js";
import type { Memory } from "../../core/types.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { bufferOf, isDue, PAPER_LIMITS } from "./buffer.js";
import { memochatStrategy, memoOf, nonePlace, optionsFor } from "./memochat.js";
import { chooseByScore } from "./offline-chooser.js";
import { writeMemoOffline } from "./offline-writer.js";
import { readChoice } from "./steps/choose-topics.js";
import { memoAnswerSchema, partitionProblem } from "./steps/write-memo.js";

/** Two topics, six exchanges: a trip to Kyoto, then a flat sourdough loaf. */
const LINES: [string, string][] = [
  ["sam", "I'm planning a trip to Japan in April to see the cherry blossoms in Kyoto."],
  ["ava", "Kyoto in April sounds lovely. Where will you stay in Kyoto?"],
  ["sam", "We booked a ryokan near the temples in Kyoto for five nights."],
  ["ava", "A ryokan near the Kyoto temples is a great choice."],
  ["sam", "What about Tokyo, should we add two nights there after Kyoto?"],
  ["ava", "Two nights in Tokyo after Kyoto works well for a Japan trip."],
  ["sam", "My sourdough bread keeps coming out flat and dense."],
  ["ava", "Is your sourdough starter active before you bake the bread?"],
  ["sam", "The sourdough starter bubbles a little; I feed it flour every morning."],
  ["ava", "Feed the sourdough starter twice a day and the bread will rise."],
  ["sam", "Thanks, I will also try a longer rise for the sourdough bread dough."],
  ["ava", "A longer rise helps sourdough bread a lot."],
];

type Mem = Awaited<ReturnType<typeof testMemlane>>;

async function play(mem: Mem, upTo = LINES.length) {
  const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
  for (const [speaker, text] of LINES.slice(0, upTo)) await s.turn(speaker, text);
  return s;
}

const memos = async (mem: Mem) =>
  (await mem.memories("ava", { status: "any" })).filter((m) => m.kind === "memo");

describe("strategy memochat (offline)", () => {
  it("writes the buffer down when it reaches 10 lines: ranges split it, in order, one entry per topic", async () => {
    const mem = await testMemlane({ strategy: memochatStrategy({ cut: 0.1 }) });
    const s = await play(mem, 9);
    assert.equal((await memos(mem)).length, 0, "9 lines: nothing is due yet");
    await s.turn(...LINES[9]!);
    const written = await memos(mem);
    assert.ok(written.length >= 2, "two topics at least");
    const ranges = written.map((m) => memoOf(m)!).sort((a, b) => a.lineStart - b.lineStart);
    assert.equal(
      partitionProblem(
        ranges.map((r) => ({ start: r.lineStart, end: r.lineEnd })),
        10,
      ),
      null,
    );
    const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
    assert.equal(new Set(written.flatMap((m) => m.sourceTurns)).size, 10, "lines 1-10 are covered");
    const kyoto = written.find((m) => m.sourceTurns.includes(turns[0]!.id))!;
    const bread = written.find((m) => m.sourceTurns.includes(turns[6]!.id))!;
    assert.notEqual(kyoto.id, bread.id, "the topic change cut the buffer");
    assert.ok(
      kyoto.sourceTurns.includes(turns[4]!.id),
      "'What about Tokyo…' follows up, it does not open a topic",
    );
    assert.match(memoOf(kyoto)!.topic + memoOf(kyoto)!.summary, /Kyoto|Japan|trip/i);
    assert.equal(kyoto.about, "sam");
    await s.turn(...LINES[10]!);
    assert.equal((await memos(mem)).length, written.length, "the buffer holds one line again");
    await mem.close();
  });

  it("forgotten entries stay forgotten: their lines are not written down again", async (t) => {
    const mem = await testMemlane({ strategy: memochatStrategy({ limits: { lines: 4 } }) });
    t.after(() => mem.close());
    const s = await play(mem, 5);
    const first = await memos(mem);
    assert.ok(first.length > 0, "lines 1-4 were written down");
    await mem.forget({ agent: "ava", memoryIds: first.map((m) => m.id) });
    for (const line of LINES.slice(5, 9)) await s.turn(...line);
    const after = await memos(mem);
    assert.ok(after.length > 0, "later lines are written down");
    const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
    const forgotten = new Set(turns.slice(0, 4).map((x) => x.id));
    assert.deepEqual(
      after.filter((m) => m.sourceTurns.some((id) => forgotten.has(id))).map((m) => m.text),
      [],
      "no entry is made again from the forgotten entries' lines",
    );
    await (await s.close()).done;
    assert.ok((await memos(mem)).every((m) => !m.sourceTurns.some((id) => forgotten.has(id))));
  });

  it("a partner's utterance that finds the buffer due waits in it, with the reply it asks for", async () => {
    const mem = await testMemlane({ strategy: memochatStrategy({ cut: 0.1, limits: { lines: 3 } }) });
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
    await s.turn(...LINES[0]!);
    await s.turn(...LINES[1]!);
    await s.turn(...LINES[2]!);
    assert.equal((await memos(mem)).length, 0, "2 lines before the partner's latest: not due");
    await s.turn("sam", "Also, is April warm enough for the Kyoto gardens?");
    const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
    const covered = new Set((await memos(mem)).flatMap((m) => m.sourceTurns));
    assert.deepEqual(
      [...covered].sort(),
      turns
        .slice(0, 3)
        .map((t) => t.id)
        .sort(),
    );
    assert.ok(!covered.has(turns[3]!.id), "the open question stays in the buffer");
    await mem.close();
  });

  it("flushes the rest at session end, and recall picks topics (or none of the others)", async () => {
    // The hashing embedder's cosines are small: a lower threshold than the bundled encoder's.
    const mem = await testMemlane({ strategy: memochatStrategy({ cut: 0.1, chooser: { threshold: 0.15 } }) });
    const s = await play(mem);
    await (await s.close()).done;
    const all = await memos(mem);
    const turns = await mem.store.listTurns(mem.scope("ava"), { sessionId: s.id });
    assert.equal(new Set(all.flatMap((m) => m.sourceTurns)).size, turns.length, "every line is in the memo");
    const r = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "Remind me where we are staying in Kyoto, the ryokan?",
    });
    assert.equal(r.strategy, "memochat");
    assert.ok(r.hits.length >= 1);
    assert.ok(r.hits[0]!.sourceTurns.includes(turns[2]!.id), "the Kyoto entry is chosen first");
    assert.ok(!r.hits.some((h) => h.sourceTurns.includes(turns[8]!.id)), "not the bread entry");
    const evidence = memoOf(r.hits[0]!.memory)!.evidence!;
    assert.ok(
      evidence.some((l) => /ryokan/.test(l)),
      "recall carries the entry's dialogue lines",
    );
    const none = await mem.recall({
      agent: "ava",
      about: "sam",
      query: "Which football club won the league in 1987?",
    });
    assert.deepEqual(none.hits, [], "nothing related: none of the others");
    await mem.close();
  });

  it("the reply sees the chosen entries with their lines, the recent buffer and the utterance", async () => {
    let system = "";
    let seen: string[] = [];
    const llm = scriptedLlm({
      byName: {
        "memochat.write-memo": () =>
          JSON.stringify({
            memos: [
              { topic: "Kyoto trip", summary: "Sam plans Kyoto in April.", start: 1, end: 6 },
              { topic: "sourdough", summary: "Sam's bread is flat.", start: 7, end: 10 },
            ],
          }),
        "memochat.choose-topics": (messages) => {
          const user = messages.at(-1)!.content;
          const kyoto = /^\((\d+)\) Kyoto trip/m.exec(user)![1];
          return JSON.stringify({ options: [Number(kyoto), 99] });
        },
        reply: (messages) => {
          system = messages[0]!.content;
          seen = messages.slice(1).map((m) => m.content);
          return "You booked the ryokan near the temples.";
        },
      },
    });
    const mem = await testMemlane({ strategy: "memochat", cognition: new LlmCognition(llm) });
    const s = await play(mem);
    await s.turn("sam", "Where are we staying in Kyoto again?");
    const { text, recall } = await s.reply();
    assert.equal(text, "You booked the ryokan near the temples.");
    assert.deepEqual(
      recall.hits.map((h) => memoOf(h.memory)!.topic),
      ["Kyoto trip"],
      "the invalid number 99 chooses nothing",
    );
    assert.match(system, /Topic: Kyoto trip/);
    assert.match(system, /Lines: Sam: I'm planning a trip to Japan.* ### Ava: Kyoto in April/);
    assert.doesNotMatch(system, /sourdough/i, "an entry not chosen stays out");
    assert.equal(seen.at(-1), "Where are we staying in Kyoto again?");
    assert.ok(seen.length <= 12, "the recent buffer, not the whole session");
    assert.ok(
      recall.usage && recall.usage.calls === 1,
      "choosing costs one call, counted in the reply's usage",
    );
    await mem.close();
  });

  it("a memo too long for one prompt is pre-filtered by the hybrid retriever, then listed oldest first", async () => {
    let listed: string[] = [];
    const llm = scriptedLlm({
      byName: {
        "memochat.choose-topics": (messages) => {
          listed = [...messages.at(-1)!.content.matchAll(/^\((\d+)\) (.*)$/gm)].map((m) => m[2]!);
          return JSON.stringify({ options: [1] });
        },
      },
    });
    const mem = await testMemlane({
      strategy: memochatStrategy({ maxOptions: 2, limits: { lines: 2 } }),
      cognition: new LlmCognition(llm),
    });
    const s = await play(mem);
    await (await s.close()).done;
    assert.equal((await memos(mem)).length, 6, "one entry per exchange (the scripted writer)");
    await mem.recall({ agent: "ava", about: "sam", query: "the sourdough starter and the bread rise" });
    assert.equal(listed.length, 3, "two entries and none of the others");
    const entries = listed.filter((l) => l !== "none of the others.");
    assert.ok(
      entries.every((l) => /sourdough|starter|bread/i.test(l)),
      "the two the retriever ranks highest",
    );
    assert.match(entries[0]!, /^My sourdough/, "oldest first");
    assert.match(entries[1]!, /^The sourdough/);
    await mem.close();
  });

  it("a memo answer that is not a partition is a failed operation; its lines stay pending until a retry writes them", async () => {
    let calls = 0;
    let good = false;
    const llm = scriptedLlm({
      byName: {
        "memochat.write-memo": (messages) => {
          calls++;
          const n = [...messages.at(-1)!.content.matchAll(/^\(line (\d+)\)/gm)].length;
          // Overlapping ranges until the model "recovers".
          return JSON.stringify({
            memos: good
              ? [{ topic: "all", summary: "everything", start: 1, end: n }]
              : [
                  { topic: "a", summary: "x", start: 1, end: 6 },
                  { topic: "b", summary: "y", start: 4, end: n },
                ],
          });
        },
      },
    });
    const mem = await testMemlane({ strategy: "memochat", cognition: new LlmCognition(llm) });
    const s = await play(mem, 11);
    assert.ok(calls >= 2, "the answer was retried with the error shown");
    assert.equal((await memos(mem)).length, 0, "nothing half-written");
    const failures = await mem.failures("ava");
    assert.equal(failures.length, 2, "line 10 found the buffer due, and line 11 still did");
    assert.ok(failures.every((f) => f.type === "TURN"));
    assert.match(JSON.stringify(failures[0]), /memochat\.write-memo/);
    good = true;
    const report = await mem.retry("ava");
    assert.equal(report.turns.length, 2);
    const written = await memos(mem);
    assert.equal(written.length, 1);
    assert.equal(written[0]!.sourceTurns.length, 10, "the pending lines were written at the retry");
    assert.equal((await mem.failures("ava")).length, 0);
    await s.turn(...LINES[11]!);
    await mem.close();
  });
});

describe("memochat pieces", () => {
  it("the chooser reads the paper's N#M and short prose answers; anything else is not a choice", () => {
    const options = [
      { n: 1, topic: "job", summary: "a new job" },
      { n: 2, topic: "NOTO", summary: "none of the others", none: true },
      { n: 3, topic: "sister", summary: "Dana in Lisbon" },
    ];
    assert.deepEqual(readChoice("1#3", options), { options: [1, 3] });
    assert.deepEqual(readChoice("The related topics are 1 # 3.", options), { options: [1, 3] });
    assert.deepEqual(readChoice("Option 3", options), { options: [3] });
    assert.deepEqual(readChoice("None of them relates.", options), { options: [2] });
    assert.equal(readChoice("Option 7", options), undefined, "a number that is not an option");
    assert.equal(readChoice("I'm sorry, but I can't help with that request.", options), undefined);
  });

  it("the answer schema accepts only ordered ranges that cover every line", () => {
    const schema = memoAnswerSchema(8);
    const ok = {
      memos: [
        { topic: "a", summary: "s", start: 1, end: 3 },
        { topic: "b", summary: "s", start: 4, end: 8 },
      ],
    };
    assert.ok(schema.safeParse(ok).success);
    const gap = {
      memos: [
        { topic: "a", summary: "s", start: 1, end: 3 },
        { topic: "b", summary: "s", start: 5, end: 8 },
      ],
    };
    assert.match(schema.safeParse(gap).error!.message, /no gap or overlap/);
    const backwards = {
      memos: [{ topic: "a", summary: "s", start: 1, end: 8 }].map((m) => ({ ...m, start: 1, end: 0 })),
    };
    assert.ok(!schema.safeParse(backwards).success);
    const short = { memos: [{ topic: "a", summary: "s", start: 1, end: 7 }] };
    assert.match(schema.safeParse(short).error!.message, /last line 8/);
  });

  it("the buffer is what no memo covers", () => {
    const turn = (i: number) => ({ id: `t${i}`, index: i, text: "one two three" }) as never;
    const turns = Array.from({ length: 7 }, (_, i) => turn(i));
    const memo = { sourceTurns: ["t0", "t1", "t2", "t3"] } as Memory;
    const b = bufferOf(turns, [memo]);
    assert.deepEqual(
      b.pending.map((t) => t.id),
      ["t4", "t5", "t6"],
    );
    assert.ok(!isDue(b.pending, PAPER_LIMITS));
    assert.ok(isDue(turns.slice(0, 3), { lines: 10, words: 8 }), "more than the word limit is due");
  });

  it("none-of-the-others sits at a seeded place, the same for the same utterance", () => {
    const entries = [0, 1, 2].map(
      (i) =>
        ({
          id: `m${i}`,
          kind: "memo",
          attributes: { topic: `t${i}`, summary: "s", lineStart: 1, lineEnd: 2, turnIndex: i },
        }) as unknown as Memory,
    );
    const places = new Set(["a?", "b?", "c?", "d?", "e?", "f?"].map((q) => nonePlace("seed", q, 3)));
    assert.ok(places.size > 1, "the place varies with the utterance");
    assert.equal(nonePlace("seed", "a?", 3), nonePlace("seed", "a?", 3));
    const { options, byN } = optionsFor(entries, 1);
    assert.deepEqual(
      options.map((o) => (o.none ? "NOTO" : o.topic)),
      ["t0", "NOTO", "t1", "t2"],
    );
    assert.equal(byN.get(3)!.id, "m1");
  });

  it("the offline chooser: threshold for none-of-the-others, gate relative to the best, cap", () => {
    const scores = { 1: 0.9, 2: 0.7, 3: 0.2, 4: 0.5 };
    assert.deepEqual(chooseByScore(scores, { threshold: 0.3, gate: 0.7, max: 4 }), [1, 2]);
    assert.deepEqual(chooseByScore(scores, { threshold: 0.3, gate: 0, max: 4 }), [1, 2, 4]);
    assert.deepEqual(chooseByScore(scores, { threshold: 0.95, gate: 0, max: 4 }), []);
    assert.deepEqual(chooseByScore(scores, { threshold: 0, gate: 0, max: 1 }), [1]);
  });

  it("the offline writer keeps the agent's own question with the partner's answer", async () => {
    const lines = [
      { speaker: "ava", text: "How is the Kyoto trip planning going?" },
      { speaker: "sam", text: "We booked a ryokan near the Kyoto temples." },
      { speaker: "ava", text: "How is your sourdough bread coming along?" },
      { speaker: "sam", text: "My sourdough bread is still flat and dense." },
    ];
    const entries = await writeMemoOffline("ava", lines, new HashEmbedder(), { cut: 0.1 });
    assert.deepEqual(
      entries.map((e) => [e.start, e.end]),
      [
        [1, 2],
        [3, 4],
      ],
    );
  });

  it("the offline writer keeps question and answer together and never leaves a line out", async () => {
    const lines = LINES.map(([speaker, text], i) => ({ speaker, text, generated: i % 2 === 1 }));
    const entries = await writeMemoOffline("ava", lines, new HashEmbedder(), { cut: 0.1 });
    assert.equal(partitionProblem(entries, lines.length), null);
    for (const e of entries) assert.equal(e.start % 2, 1, "an entry starts at a partner line");
    assert.ok(
      entries.every((e) => !/Kyoto in April sounds lovely/.test(e.summary)),
      "generated lines feed no summary",
    );
  });

  it("a model that keeps failing the memo partition: past twice the limits, the offline writer takes the buffer", async () => {
    const model = scriptedLlm({ byName: { "memochat.write-memo": () => "not a memo" } });
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy: "memochat", retries: 0 });
    try {
      const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
      for (let i = 0; i < 12; i++) {
        await s.turn("sam", `Today I worked on garden bed number ${i} and planted beans.`);
        await s.turn("ava", `That sounds lovely, tell me about bed ${i}.`);
      }
      const ops = await mem.operations("ava", {});
      const failed = ops.filter((o) => o.status === "failed" && o.type === "TURN");
      assert.ok(failed.length >= 1, "the model's failed writes are recorded");
      const fallback = ops.filter(
        (o) => o.type === "SUMMARIZE" && o.model === "offline" && /offline/.test(o.rationale ?? ""),
      );
      assert.equal(fallback.length, 1, "one offline write took the overflowing buffer");
      const memos = await mem.memories("ava");
      assert.ok(memos.length >= 1, "the buffer was written down");
      // The buffer stopped growing: what is left unwritten is below the overflow.
      const covered = new Set(memos.flatMap((m) => m.sourceTurns));
      const turns = await s.turns();
      const lastCovered = turns.findLastIndex((t) => covered.has(t.id));
      assert.ok(turns.length - 1 - lastCovered < 20, `${turns.length - 1 - lastCovered} lines still pending`);
    } finally {
      await mem.close();
    }
  });
});
