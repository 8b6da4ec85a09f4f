import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readLocomo } from "../../src/engine/ingest/formats/locomo.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { recallChart } from "../eval/recall/chart.js";
import { evaluateRecall, recallMarkdown } from "../eval/recall/evaluate.js";
import { ANN_AND_BEN } from "./fixtures/tiny-locomo.js";

/** The tiny conversation with questions whose evidence is good, malformed and dangling. */
const sample = {
  sample_id: "t1",
  conversation: ANN_AND_BEN,
  qa: [
    { question: "What dog did Ben adopt?", answer: "a beagle", evidence: ["D1:2"], category: 4 },
    { question: "What class did Ann start?", answer: "pottery", evidence: ["D1:3", "D2:2"], category: 1 },
    {
      question: "When did Ann start pottery?",
      answer: "May 2023",
      evidence: ["D1:3", "Dx:9", "D9:9"],
      category: 2,
    },
    { question: "Is Ben allergic to cats?", answer: "never said", evidence: [], category: 5 },
  ],
};

describe("eval recall", () => {
  it("scores turn recall@k per category, counting malformed and dangling evidence", async () => {
    const report = await evaluateRecall(readLocomo([sample]), new HashEmbedder(), { ks: [1, 5] });
    assert.equal(report.questions, 3, "category 5 is not scored");
    assert.deepEqual(report.evidence, { total: 6, malformed: 1, dangling: 1 });
    // Plain BM25 ranks the greeting "Hey Ben!" first (the name matches); the hybrid drops names
    // from the lexical query and finds the beagle turn.
    assert.equal(report.recall.bm25!["4"]![1], 0);
    assert.equal(report.recall.hybrid!["4"]![1], 1);
    assert.equal(report.recall.hybrid!.all![5], 1, "five turns of five: every evidence turn is found");
    assert.ok(report.recall.hybrid!["1"]![1]! <= 0.5, "two evidence turns cannot both be in the top 1");
    assert.match(recallMarkdown(report), /\| hybrid \| 4 single-hop \| 1 \|/);
    // Coverage counts only the question with two evidence turns (the pottery one): at k 1 at most
    // one piece fits, so it is never complete; at k 5 every turn is shown, so it is.
    assert.deepEqual(report.coverage.hybrid!["1"]![1], { questions: 1, all: 0, some: 1 });
    assert.deepEqual(report.coverage.hybrid!.all![5], { questions: 1, all: 1, some: 0 });
    assert.equal(report.coverage.hybrid!["4"], undefined, "one evidence turn: not a set");
    assert.match(
      recallMarkdown(report),
      /\| hybrid \| 1 multi-hop \| 1 \| 0\.0 \/ 100\.0 \| 100\.0 \/ 0\.0 \|/,
    );
    assert.match(recallChart(report, 5), /^<svg/);
  });

  it("runs the hybrid without a signal when asked, as its own row", async () => {
    const report = await evaluateRecall(readLocomo([sample]), new HashEmbedder(), {
      ks: [1],
      rankers: ["hybrid"],
      ablations: ["dense", "bm25"],
    });
    assert.deepEqual(report.rankers, ["hybrid", "hybrid-no-dense", "hybrid-no-bm25"]);
    assert.equal(report.recall.hybrid!["4"]![1], 1);
    assert.equal(report.recall["hybrid-no-bm25"]!["4"]![1], 1, "the hashing encoder alone still finds it");
    assert.match(recallMarkdown(report), /\| hybrid-no-dense \| all \(1-4\) \| 3 \|/);
  });

  it("scores a strategy's memories through their source turns", async () => {
    const samples = readLocomo([sample]);
    const report = await evaluateRecall(samples, new HashEmbedder(), {
      ks: [1, 5],
      units: "memories",
      strategy: "accumulate",
    });
    assert.deepEqual(report.rankers, ["bm25", "dense", "rrf", "hybrid"]);
    assert.equal(report.questions, 3);
    assert.ok(report.recall.rrf!.all![5]! > 0, "memories lead back to evidence turns");
    assert.ok(report.recall.hybrid!.all![5]! > 0);
    // Every evidence turn here is a statement the summary keeps: the memories reach all of it.
    assert.deepEqual(report.reach!.all, { current: 1, withPast: 1 });
    await assert.rejects(
      evaluateRecall(samples, new HashEmbedder(), { units: "memories", rankers: ["magic" as never] }),
      /do not apply to memories/,
    );
  });

  it("says how much evidence some memory cites: what no ranking of the memories can find is the writer's loss", async () => {
    // A question whose evidence is a greeting that asks something: no summary keeps it.
    const asked = {
      ...sample,
      qa: [
        ...sample.qa,
        { question: "Who asked about the weekend?", answer: "Ann", evidence: ["D1:1"], category: 3 },
      ],
    };
    const report = await evaluateRecall(readLocomo([asked]), new HashEmbedder(), {
      ks: [5],
      units: "memories",
      strategy: "accumulate",
      rankers: ["hybrid"],
    });
    assert.deepEqual(report.reach!["3"], { current: 0, withPast: 0 });
    assert.equal(report.recall.hybrid!["3"]![5], 0, "no ranking finds what no memory cites");
    assert.deepEqual(report.reach!["4"], { current: 1, withPast: 1 });
    assert.equal(report.reach!.all!.current, 3 / 4, "three questions of four fully reached");
    assert.match(recallMarkdown(report), /\| 3 open-domain \| 1 \| 0\.000 \| 0\.000 \|/);
    const turns = await evaluateRecall(readLocomo([asked]), new HashEmbedder(), { ks: [5] });
    assert.equal(turns.reach, undefined, "turns are their own evidence");
    // With places for the turns the memories missed, the greeting is found after all.
    const mixed = await evaluateRecall(readLocomo([asked]), new HashEmbedder(), {
      ks: [1, 5],
      units: "memories",
      strategy: "accumulate",
      rankers: ["hybrid"],
      turns: [2],
    });
    assert.deepEqual(mixed.rankers, ["hybrid", "hybrid+2-turns"]);
    assert.equal(mixed.recall["hybrid+2-turns"]!["3"]![5], 1, "a turn no memory cites is found as a turn");
    assert.equal(
      mixed.recall["hybrid+2-turns"]!.all![1],
      mixed.recall.hybrid!.all![1],
      "at a cut of 1 the best memory stays",
    );
    await assert.rejects(
      evaluateRecall(readLocomo([asked]), new HashEmbedder(), { ks: [5], turns: [2] }),
      /memories only/,
    );
    await assert.rejects(
      evaluateRecall(readLocomo([asked]), new HashEmbedder(), { ks: [5], units: "memories", turns: [0] }),
      /positive whole numbers/,
    );
  });
});
