import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readLocomo } from "../../src/engine/ingest/formats/locomo.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { FUSION_WEIGHTS, fuseScaled } from "../../src/retrieval/fusion.js";
import {
  type ConversationRows,
  fit,
  fitMarkdown,
  leaveOneOut,
  parseArgs,
  type QuestionRows,
  readRows,
  recallAt,
  SHIPPED,
  scores,
} from "../eval/recall/fit-fusion.js";
import { ingestedTurnIndex } from "../eval/recall/leave-one-out.js";
import { ANN_AND_BEN } from "./fixtures/tiny-locomo.js";

/** A question over `n` turns, every signal 0 but the ones given. */
function question(n: number, gold: number[], signals: Partial<QuestionRows> = {}): QuestionRows {
  const zeros = () => new Array<number>(n).fill(0);
  return {
    category: 4,
    gold,
    dense: zeros(),
    bm25: zeros(),
    subject: zeros(),
    time: zeros(),
    dated: zeros(),
    recency: zeros(),
    asks: zeros(),
    logLength: zeros(),
    ...signals,
  };
}

/** `n` turns, each alone in its session (no neighbours) unless `chain`. */
function conversation(conv: string, n: number, questions: QuestionRows[], chain = false): ConversationRows {
  const turns = Array.from({ length: n }, (_, i) => i);
  return {
    conv,
    turns: n,
    prev: turns.map((i) => (chain ? i - 1 : -1)),
    next: turns.map((i) => (chain && i + 1 < n ? i + 1 : -1)),
    questions,
  };
}

describe("fitting the fusion weights", () => {
  it("scores turns exactly as the scaled fusion does, neighbours and shape included", () => {
    const n = 6;
    const raw = { dense: [0.9, 0.2, -0.1, 0.5, 0.7, 0.3], bm25: [0, 3, 0, 6, 1.5, 0] };
    const flags = { subject: [1, 0, 0, 1, 0, 0], time: [0, 1, 0, 0, 0, 1], asks: [0, 0, 1, 0, 1, 0] };
    const length = [10, 40, 5, 80, 20, 12];
    const fused = fuseScaled(
      {
        dense: raw.dense.map((score, doc) => ({ doc, score })),
        lexical: raw.bm25.flatMap((score, doc) => (score ? [{ doc, score }] : [])),
        subject: (d) => flags.subject[d] === 1,
        time: (d) => flags.time[d] === 1,
        neighbours: (d) => [d - 1, d + 1].filter((x) => x >= 0 && x < n),
        asks: (d) => flags.asks[d] === 1,
        length: (d) => length[d]!,
      },
      FUSION_WEIGHTS,
    );
    const q = question(n, [0], {
      dense: raw.dense.map((x) => Math.max(0, x) / 0.9),
      bm25: raw.bm25.map((x) => x / 6),
      ...flags,
      logLength: length.map((x) => Math.log1p(x)),
    });
    const mine = scores(conversation("c", n, [q], true), q, SHIPPED);
    for (let d = 0; d < n; d++) assert.ok(Math.abs(mine[d]! - fused.get(d)!.score!) < 1e-12, `turn ${d}`);
  });

  it("raises a weight until the evidence it marks reaches the top ten, and reports it held out", () => {
    // Twelve turns: eleven close to the question and one, the evidence, that only names its
    // subject. At the shipped 0.7 it ranks last; a higher subject weight lifts it into the top ten.
    const convs = ["c1", "c2", "c3"].map((conv) => {
      const dense = [0.1, ...Array.from({ length: 11 }, (_, i) => 0.9 + i / 200)];
      const subject = [1, ...new Array<number>(11).fill(0)];
      return conversation(conv, 12, [question(12, [0], { dense, subject })]);
    });
    assert.equal(recallAt(convs[0]!, convs[0]!.questions[0]!, SHIPPED)[2], 0);
    const w = fit(convs);
    assert.ok(w.subject > 0.8, `subject ${w.subject}`);
    assert.equal(recallAt(convs[0]!, convs[0]!.questions[0]!, w)[2], 1);
    const held = leaveOneOut(convs);
    assert.ok(held.get("c2")!.subject > 0.8);
    assert.match(
      fitMarkdown(convs, (c: string) => held.get(c)!),
      /\| pooled \| all \(1-4\) \| 3 \| 1\.000 \| 1\.000 \| 1\.000 \| 1\.000 \| 0\.000 \|/,
    );
  });

  it("reads each turn's signals as the turn index ranks them", async () => {
    const [sample] = readLocomo([
      {
        sample_id: "t1",
        conversation: ANN_AND_BEN,
        qa: [
          { question: "What dog did Ben adopt?", answer: "a beagle", evidence: ["D1:2"], category: 4 },
          { question: "What class did Ann start?", answer: "pottery", evidence: ["D1:3; D2:2"], category: 1 },
          { question: "Is Ben allergic?", answer: "never said", evidence: ["D1:2"], category: 5 },
        ],
      },
    ]);
    const [rows] = await readRows([sample!], new HashEmbedder());
    assert.equal(rows!.turns, 5);
    assert.deepEqual(rows!.prev, [-1, 0, 1, -1, 3], "neighbours stay within a session");
    assert.equal(rows!.questions.length, 2, "category 5 is left out");
    assert.deepEqual(rows!.questions[1]!.gold, [2, 4], "evidence listed in one string is split");
    const q = rows!.questions[0]!;
    assert.equal(Math.max(...q.dense), 1, "dense is scaled by the question's best");
    assert.deepEqual(q.subject, [0, 1, 0, 1, 0], "Ben's turns are about the subject the question names");
    assert.equal(q.asks[0], 1, "the greeting asks a question");
    assert.equal(recallAt(rows!, q, SHIPPED)[0], 1, "the beagle turn ranks first, as in the index");
  });

  it("ranks every question's turns in the order the index does", async () => {
    const questions = [
      "What dog did Ben adopt?",
      "What class did Ann start?",
      "When did Ann start pottery?",
      "What did Ben say in May 2023 about his shoes?",
      "Does Ann still do pottery now?",
    ];
    const [sample] = readLocomo([
      {
        sample_id: "t1",
        conversation: ANN_AND_BEN,
        // Every turn is the evidence, so the rows keep every question.
        qa: questions.map((question) => ({ question, answer: "-", evidence: ["D1:1"], category: 4 })),
      },
    ]);
    const embedder = new HashEmbedder();
    const [rows] = await readRows([sample!], embedder);
    const index = await ingestedTurnIndex(sample!, embedder);
    for (const [i, question] of questions.entries()) {
      const s = scores(rows!, rows!.questions[i]!, SHIPPED);
      const mine = [...s.keys()].sort((a, b) => s[b]! - s[a]! || a - b).map((d) => index.turns[d]!.id);
      const theirs = (await index.search(question, { k: 5 })).map((h) => h.id);
      assert.deepEqual(mine, theirs, question);
    }
  });

  it("refuses a conversation with a turn long enough to be split in passages", async () => {
    const long = "We walked along the canal and talked about the garden for hours. ".repeat(40);
    const [sample] = readLocomo([
      {
        sample_id: "t2",
        conversation: { ...ANN_AND_BEN, session_2: [{ speaker: "Ben", dia_id: "D2:1", text: long }] },
        qa: [{ question: "Where did Ben walk?", answer: "canal", evidence: ["D2:1"], category: 4 }],
      },
    ]);
    await assert.rejects(readRows([sample!], new HashEmbedder()), /indexed as passages/);
  });

  it("reads its arguments strictly", () => {
    assert.deepEqual(parseArgs(["a.json,b.json", "--test", "c.json", "--cache", "rows.json"]), {
      dev: ["a.json", "b.json"],
      test: ["c.json"],
      cache: "rows.json",
    });
    assert.throws(() => parseArgs(["a.json", "b.json"]), /once, comma-separated/);
    assert.throws(() => parseArgs(["a.json", "--test", "--cache", "x"]), /--test needs a value/);
    assert.throws(() => parseArgs(["a.json", "--cahce", "x"]), /unknown option --cahce/);
    assert.throws(() => parseArgs([]), /name the dev files/);
  });
});
