/**
 * `memlane eval standing` on files the test writes: the detector trains and cross-validates, a
 * probe is asked as written and again at the start of the next session, and a taking-back that
 * the conversations mark makes the old version count as stale while it is still shown.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "../../src/core/errors.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { evaluateConversations, evaluateDetector, evaluateFalseAlarms } from "../eval/standing/evaluate.js";
import { fitStandingModel, parseStandingSentences, type StandingSentence } from "../eval/standing/train.js";

const said = (label: StandingSentence["label"], texts: string[]) =>
  texts.map((text, i) => ({ id: `${label}-${i}`, text, label, style: "casual" }));

const rows: StandingSentence[] = [
  ...said("instruction", [
    "From now on, always give me distances in kilometres.",
    "Please always keep your answers under five lines.",
    "Always write the code examples in Rust from now on.",
    "Never use bullet points in your replies again.",
    "Going forward, answer me in French.",
  ]),
  ...said("preference", [
    "I prefer recipes without any dairy.",
    "I'd rather you suggested walks, I don't drive.",
    "I hate long answers, keep them short.",
    "I prefer plans that list the cost first.",
  ]),
  ...said("revoke", [
    "You can stop using kilometres now, miles are fine again.",
    "Forget what I said about bullet points, use them again.",
    "Drop the five-line limit.",
  ]),
  ...said("none", [
    "I went to the market yesterday.",
    "Can you make this one a table?",
    "My boss always says to be on time.",
    "It was sunny in Leeds today.",
    "I used to run every morning in college.",
    "Have a great weekend!",
  ]),
];

const session = (n: number, date: string, lines: [string, string][]) => ({
  [`session_${n}_date_time`]: date,
  [`session_${n}`]: lines.map(([speaker, text], i) => ({ speaker, dia_id: `D${n}:${i + 1}`, text })),
});

const conversation = {
  sample_id: "t-1",
  conversation: {
    speaker_a: "Sam",
    speaker_b: "Ava",
    ...session(1, "10:00 am on 1 March, 2024", [
      ["Sam", "Hi! From now on, always give me distances in kilometres."],
      ["Ava", "Noted."],
    ]),
    ...session(2, "10:00 am on 8 March, 2024", [
      ["Sam", "How far is the walk to the castle?"],
      ["Ava", "About two."],
    ]),
    ...session(3, "10:00 am on 15 March, 2024", [
      ["Sam", "You can stop using kilometres now, miles are fine again."],
      ["Ava", "Sure."],
    ]),
  },
  qa: [
    {
      question: "How far is York from Leeds?",
      asked_after: "D1:2",
      evidence: ["D1:1"],
      superseded: [],
      kind: "instruction",
    },
    {
      question: "How far is the coast?",
      asked_after: "D3:2",
      evidence: ["D3:1"],
      superseded: ["D1:1"],
      kind: "instruction",
    },
  ],
};

describe("eval standing", () => {
  it("names every bad line of the labelled file in one typed error", () => {
    assert.throws(
      () =>
        parseStandingSentences(
          '{"text": "ok", "label": "none"}\nnot json\n{"text": "x", "label": "maybe"}',
          "s.jsonl",
        ),
      (e: unknown) => e instanceof InvalidInputError && /line 2/.test(e.message) && /line 3/.test(e.message),
    );
  });

  it("cross-validates the detector, and asks probes as written and in the next session", async () => {
    const embedder = new HashEmbedder();
    const detector = await evaluateDetector(rows, null, 3);
    assert.equal(detector.utterances, rows.length);
    assert.equal(detector.perLabel.instruction?.support, 5);
    const model = await fitStandingModel(rows, "test rows");
    assert.deepEqual(
      model.detectors.map((d) => d.embedder),
      [null],
    );
    const report = await evaluateConversations([conversation], embedder, model, { k: 5 });
    // The first probe: as written (the window shows it), and again in session 2; the second is
    // asked as written only (there is no session after it).
    assert.equal(report.conditions["as written"].window?.probes, 2);
    assert.equal(report.conditions["next session"].window?.probes, 1);
    assert.equal(report.conditions["next session"].window?.served, 0, "a new session's window is empty");
    assert.equal(report.conditions["as written"].window?.served, 2);
    const alarms = await evaluateFalseAlarms([conversation], embedder, model);
    assert.equal(alarms.conversations, 1);
    assert.equal(alarms.partnerTurns, 3);
  });
});
