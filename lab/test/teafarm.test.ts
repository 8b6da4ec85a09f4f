/**
 * TeaFarm as the paper runs it: one exam per conversation, written from the sessions themselves
 * (not from any strategy's memory), shared by every strategy, each question in its own session;
 * an offline writer and judge; the exam cache; and the memory-gold row.
 */
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { validateTranscript } from "../../src/engine/ingest/formats/transcript.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { createStrategy } from "../../src/strategies/registry.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { cachedExam, readExams, writeExam, writeExams } from "../eval/teafarm/exam.js";
import { goldHits } from "../eval/teafarm/gold.js";
import { judgeOffline, offlineQuestions } from "../eval/teafarm/offline-exam.js";
import { runTeafarm } from "../eval/teafarm/teafarm.js";
import { transcriptFingerprint } from "../eval/transcript-fingerprint.js";

const story = validateTranscript({
  agent: "ava",
  sessions: [
    { id: "s1", at: "2024-03-01", partner: "sam", turns: [{ speaker: "sam", text: "I live in Leeds." }] },
    { id: "s2", at: "2024-04-01", partner: "sam", turns: [{ speaker: "sam", text: "I moved to Bristol." }] },
  ],
});

const exam2 = () => [
  {
    question: "How is life in Leeds these days?",
    premise: "Sam still lives in Leeds.",
    fact: "Sam moved to Bristol.",
    answer: "Sam lives in Bristol.",
    about: "partner",
    evidence: [1],
    leadIn: ["I was looking at old photos."],
  },
  { question: "Still playing the violin?", fact: "Sam never played the violin.", answer: "No." },
];

describe("TeaFarm exam", () => {
  it("is written once from the sessions' own summaries and shared by every strategy", async () => {
    const chat = scriptedLlm({
      questions: exam2,
      reply: (system) => ({
        rationale: "r",
        reply: /Bristol/.test(system) ? "You live in Bristol." : "Leeds!",
      }),
    });
    const embedder = new HashEmbedder();
    const exam = await writeExam(story, {
      embedder,
      chat,
      questions: 2,
    });
    const writes = () => chat.calls.filter((c) => c.options.jsonSchema?.name === "counterfactual_questions");
    assert.equal(writes().length, 1);
    // The writer saw the conversation's summaries, numbered, even though no strategy ran yet.
    assert.match(writes()[0]!.messages[1]!.content, /\[1\] Sam said: I moved to Bristol\./);
    assert.deepEqual(exam.questions[0]!.evidence, ["s2:1"], "line 1's source turn");
    assert.equal(exam.questions[0]!.about, "sam");
    assert.equal(exam.fingerprint, transcriptFingerprint(story));

    const reports = [];
    for (const name of ["none", "accumulate", "theanine"])
      reports.push(
        await runTeafarm({ transcript: story, chat, embedder, exam, strategy: createStrategy(name) }),
      );
    assert.equal(writes().length, 1, "no strategy made the writer run again");
    for (const r of reports)
      assert.deepEqual(
        r.items.map((i) => i.question),
        ["How is life in Leeds these days?", "Still playing the violin?"],
      );
    const [none, accumulate, theanine] = reports;
    assert.equal(none!.items[0]!.correct, false, "no memory, no Bristol");
    assert.equal(none!.groundedRate, 0);
    assert.equal(accumulate!.items[0]!.correct, true);
    assert.equal(accumulate!.items[0]!.grounded, true);
    assert.equal(theanine!.items[0]!.correct, true);
  });

  it("asks each question in its own session, after the lead-in", async () => {
    const chat = scriptedLlm({ questions: exam2 });
    const embedder = new HashEmbedder();
    await runTeafarm({
      transcript: story,
      chat,
      // The same model writes and judges here on purpose: the scripted one plays every part.
      judge: chat,
      embedder,
      strategy: createStrategy("accumulate"),
      questions: 2,
    });
    const replies = chat.calls.filter(
      (c) => c.options.task === "reply" || c.options.jsonSchema?.name === "reply",
    );
    const said = (c: (typeof replies)[number]) =>
      c.messages.filter((m) => m.role === "user").map((m) => m.content);
    // Lead-in reply, question 1's reply, question 2's reply.
    assert.equal(replies.length, 3);
    assert.deepEqual(said(replies[1]!), ["I was looking at old photos.", "How is life in Leeds these days?"]);
    assert.deepEqual(
      said(replies[2]!),
      ["Still playing the violin?"],
      "question 1 is not in question 2's session",
    );
  });

  it("is written by its writer alone, summaries included, and cached per writer", async () => {
    const embedder = new HashEmbedder();
    const writer = scriptedLlm({ questions: exam2 });
    const exam = await writeExam(story, { embedder, chat: writer, questions: 2 });
    const steps = writer.calls.map((c) => c.options.jsonSchema?.name ?? c.options.task);
    assert.ok(steps.includes("summarize"), "the writer summarized the sessions");
    assert.ok(steps.includes("counterfactual_questions"));
    assert.equal(exam.writer, writer.name);
    const offline = await writeExam(story, { embedder, questions: 2 });
    assert.equal(offline.writer, "offline");
    const file = join(mkdtempSync(join(tmpdir(), "teafarm-")), "exams.json");
    await writeExams(file, [exam]);
    await writeExams(file, [offline]);
    const cached = await readExams(file);
    assert.equal(cached.length, 2, "one conversation, two writers: two exams");
    assert.deepEqual(cachedExam(cached, exam.fingerprint, writer.name), exam);
    assert.deepEqual(cachedExam(cached, exam.fingerprint, "offline"), offline);
    assert.equal(cachedExam(cached, exam.fingerprint, "openai:another"), undefined);
  });

  it("caches exams by conversation and reuses them", async () => {
    const embedder = new HashEmbedder();
    const exam = await writeExam(story, {
      embedder,
      questions: 3,
    });
    const file = join(mkdtempSync(join(tmpdir(), "teafarm-")), "exam.json");
    assert.deepEqual(await readExams(file), [], "no file yet: nothing cached");
    await writeExams(file, [exam]);
    await writeExams(file, [{ ...exam, fingerprint: "other" }]);
    const cached = await readExams(file);
    assert.deepEqual(
      cached.map((e) => e.fingerprint),
      [exam.fingerprint, "other"],
    );
    assert.deepEqual(cached[0], exam);
  });
});

describe("TeaFarm offline", () => {
  const embedder = new HashEmbedder();
  const line = (text: string, turn: string, about = "sam") => ({ about, text, turns: [turn] });

  it("writes questions about an earlier state that developed, for both speakers", async () => {
    const questions = await offlineQuestions(
      [
        {
          session: "s1",
          at: "2024-03-01",
          lines: [
            line("Sam works night shifts as a nurse at the Leeds hospital.", "t1"),
            line("Ava plays the violin in an amateur orchestra.", "t2", "ava"),
            line("Sam has a beagle called Biscuit.", "t3"),
          ],
        },
        {
          session: "s2",
          at: "2024-04-01",
          lines: [
            line("Sam works day shifts as a nurse at the Leeds hospital.", "t4"),
            line("Ava plays the cello in an amateur orchestra now.", "t5", "ava"),
            line("Sam bought a bicycle.", "t6"),
          ],
        },
      ],
      { agent: "ava", partner: "sam", count: 5 },
      embedder,
    );
    assert.deepEqual(
      questions.map((q) => [q.about, q.premise, q.fact, q.evidence, q.stale]),
      [
        [
          "sam",
          "Sam works night shifts as a nurse at the Leeds hospital.",
          "Sam works day shifts as a nurse at the Leeds hospital.",
          ["t4"],
          ["t1"],
        ],
        [
          "ava",
          "Ava plays the violin in an amateur orchestra.",
          "Ava plays the cello in an amateur orchestra now.",
          ["t5"],
          ["t2"],
        ],
      ],
    );
    assert.match(questions[0]!.question, /night shifts/);
    // The lead-in names the shared topic in the sentence's own words, not as stems ("shift", "hospit").
    assert.equal(questions[0]!.leadIn[1], "I was thinking about works, shifts, nurse the other day.");
  });

  it("judges by the true fact's own words against the outdated premise's", () => {
    const item = { premise: "Sam lives in Leeds.", fact: "Sam moved to Bristol." };
    assert.equal(judgeOffline(item, "You moved to Bristol in April, I remember.").correct, true);
    assert.equal(judgeOffline(item, "Leeds is lovely, you live there.").correct, false);
    assert.equal(judgeOffline(item, "I don't have anything about that.").correct, false);
  });

  it("runs end to end without a chat model, and the gold row sees the gold memory", async () => {
    const t = validateTranscript({
      agent: "ava",
      sessions: [
        {
          id: "s1",
          at: "2024-03-01",
          partner: "sam",
          turns: [{ speaker: "sam", text: "I work night shifts as a nurse at the Leeds hospital." }],
        },
        {
          id: "s2",
          at: "2024-04-01",
          partner: "sam",
          turns: [{ speaker: "sam", text: "I work day shifts as a nurse at the Leeds hospital." }],
        },
      ],
    });
    const gold = await runTeafarm({ transcript: t, embedder, strategy: "gold", questions: 2 });
    assert.equal(gold.writer, "offline");
    assert.equal(gold.judge, "offline");
    assert.equal(gold.items.length, 1);
    assert.deepEqual(
      goldHits(gold.exam, gold.exam.questions[0]!).map((h) => h.sourceTurns),
      [gold.exam.questions[0]!.evidence],
    );
    assert.equal(gold.items[0]!.grounded, true);
    assert.match(gold.items[0]!.reply, /day shifts/);
    assert.equal(gold.items[0]!.correct, true);
    const none = await runTeafarm({
      transcript: t,
      embedder,
      strategy: createStrategy("none"),
      exam: gold.exam,
    });
    assert.equal(none.items[0]!.correct, false);
  });
});
