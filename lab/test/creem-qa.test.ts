import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateTranscript } from "../../src/engine/ingest/formats/transcript.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { partnerLines } from "../../test/fixtures/engine.js";
import { type QaQuestion, runCreemQa, shuffled } from "../eval/creem/qa.js";

const moved = validateTranscript(
  partnerLines("ava", "sam", [
    ["s1", "2024-03-01T10:00", "I live in Leeds."],
    ["s2", "2024-04-01T10:00", "I moved to Bristol."],
    ["s3", "2024-05-01T10:00", "Bristol is lovely in May."],
  ]),
);

describe("eval creem-qa (scripted model)", () => {
  it("writes the exam once from the dialogue and scores each strategy from its own memory", async () => {
    const chat = scriptedLlm({ summary: (name, text) => `${name} said: ${text}` });
    const report = await runCreemQa({
      transcript: moved,
      strategies: ["accumulate", "creem", "none"],
      chat,
      embedder: new HashEmbedder(),
    });
    const exams = chat.calls.filter((c) => c.options.jsonSchema?.name === "creem_qa_exam");
    assert.equal(exams.length, 2, "one exam per session after the first, shared by every strategy");
    assert.ok(!exams.some((c) => /said:/.test(c.messages.at(-1)!.content)), "the exam never sees a memory");
    assert.equal(report.questions, 2);
    const by = Object.fromEntries(report.rows.map((r) => [r.strategy, r]));
    assert.equal(by.accumulate!.correct, 2);
    assert.equal(by.creem!.correct, 2);
    assert.equal(by.none!.noAnswer, 2, "no memory, no answer");
    assert.ok(
      !chat.calls.some((c) => c.options.jsonSchema?.name === "standing"),
      "no standing instructions: the paper has none",
    );
  });

  it("writes the exam with its own model and moves the right option around", async () => {
    const chat = scriptedLlm({ summary: (name, text) => `${name} said: ${text}` });
    const writer = scriptedLlm();
    await runCreemQa({
      transcript: moved,
      strategies: ["accumulate"],
      chat,
      writer,
      embedder: new HashEmbedder(),
    });
    const named = (model: typeof chat, name: string) =>
      model.calls.filter((c) => c.options.jsonSchema?.name === name).length;
    assert.equal(named(writer, "creem_qa_exam"), 2, "the writer wrote the exam");
    assert.equal(named(chat, "creem_qa_exam"), 0, "the model under test did not");
    assert.equal(named(writer, "creem_qa_answer"), 0, "and the writer answered nothing");
    // Shuffled per question, the same every run; the answer follows its text.
    const places = Array.from({ length: 30 }, (_, i) => {
      const q: QaQuestion = {
        session: "s",
        question: `Where does Sam live now? (${i})`,
        options: { A: "Bristol", B: "Leeds", C: "York" },
        answer: "A",
      };
      const s = shuffled(q);
      assert.equal(s.options[s.answer], "Bristol");
      assert.deepEqual(shuffled(q), s);
      return s.answer;
    });
    assert.deepEqual(new Set(places), new Set(["A", "B", "C"]), "the right option is found in every place");
  });

  it("answers from the strategy's whole memory, not a top k", async () => {
    const many = validateTranscript(
      partnerLines("ava", "sam", [
        ...Array.from(
          { length: 14 },
          (_, i) =>
            [
              `s${i + 1}`,
              `2024-03-${String(i + 1).padStart(2, "0")}T10:00`,
              `I tried hobby number ${i + 1}.`,
            ] as [string, string, string],
        ),
        ["s15", "2024-04-01T10:00", "I moved to Bristol."],
      ]),
    );
    const chat = scriptedLlm({ summary: (name, text) => `${name} said: ${text}` });
    await runCreemQa({
      transcript: many,
      strategies: ["accumulate"],
      chat,
      writer: scriptedLlm(),
      embedder: new HashEmbedder(),
    });
    const answers = chat.calls.filter((c) => c.options.jsonSchema?.name === "creem_qa_answer");
    const last = answers.at(-1)!.messages.at(-1)!.content;
    const shown = last.split("\n").filter((l) => l.startsWith("- ("));
    assert.equal(shown.length, 15, last);
    assert.match(shown[0]!, /hobby number 1\./, "oldest first");
  });
});
