import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";
import { parseCarecallJsonl } from "../eval/carecall/dataset.js";
import { carecallMarkdown, evaluateCarecall } from "../eval/carecall/evaluate.js";

const DEV = readFileSync(new URL("../data/carecall/dev.jsonl", import.meta.url), "utf8");

describe("eval carecall", () => {
  it("reads the dev set: at least 40 labelled pairs with every operation and FUSION", () => {
    const examples = parseCarecallJsonl(DEV);
    const labels = examples.flatMap((e) => e.pairs ?? []).map((p) => p.op);
    assert.ok(labels.length >= 40);
    for (const op of ["PASS", "REPLACE", "APPEND", "DELETE", "FUSION"]) assert.ok(labels.includes(op), op);
    assert.equal(examples[0]!.about, "Sam");
  });

  it("refuses bad lines with their numbers", () => {
    assert.throws(
      () =>
        parseCarecallJsonl(
          '{"memory": [], "summary": [], "gold": []}\nnot json\n{"memory": ["a"], "summary": ["b"], "gold": [], "pairs": [{"m": 3, "s": 0, "op": "PASS"}]}',
        ),
      (e: unknown) => {
        assert.ok(e instanceof InvalidInputError);
        assert.match(e.message, /line 2: not JSON/);
        assert.match(e.message, /line 3: pair \(3, 0\) is out of range/);
        return true;
      },
    );
    assert.throws(
      () =>
        parseCarecallJsonl(
          '{"memory": ["a"], "summary": ["b"], "gold": [], "pairs": [{"m": 0, "s": 0, "op": "MERGE"}]}',
        ),
      InvalidInputError,
    );
    assert.throws(() => parseCarecallJsonl("\n\n"), /no examples/);
  });

  it("scores the offline operator on the dev set above the accumulate baseline", async () => {
    const embedder = new CachedEmbedder(new UniversalSentenceEncoder());
    // The hand-written rules were tuned on this set: a regression guard only (see the README).
    const cognition = new OfflineCognition(embedder, { pairOperator: null });
    const examples = parseCarecallJsonl(DEV);
    const report = await evaluateCarecall(examples, cognition);
    assert.ok(report.pairwise!.accuracy4 >= 0.9, `accuracy ${report.pairwise!.accuracy4}`);
    // The trained operator never saw this set (it learned from memory-ops): held-out for it.
    const learned = await evaluateCarecall(examples, new OfflineCognition(embedder));
    assert.ok(learned.pairwise!.accuracy4 >= 0.7, `learned accuracy ${learned.pairwise!.accuracy4}`);
    assert.ok(learned.setF1.exact > learned.baseline.setF1.exact);
    assert.ok(learned.pairRecords.length === report.pairRecords.length);
    assert.ok(report.setF1.exact > report.baseline.setF1.exact + 0.2);
    assert.equal(report.pairwise!.fusionGold, 3);
    const noFusion = await evaluateCarecall(examples, cognition, { fusion: false });
    assert.equal(noFusion.pairwise!.confusion.FUSION!.FUSION, 0);
    assert.ok(report.setF1.soft >= noFusion.setF1.soft);
    const table = carecallMarkdown([report, noFusion]);
    assert.match(table, /\| accumulate \(APPEND only\) \|/);
    assert.match(table, /\| offline \(no FUSION\) \|/);
  });
});
