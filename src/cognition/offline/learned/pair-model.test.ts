import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PAIR_LABELS_WITH_FUSION } from "../../../core/memory-update.js";
import { HashEmbedder } from "../../../models/hash-embedder.js";
import { classifyPairsStep } from "../../../strategies/carecall/steps/classify-pairs.js";
import { OfflineCognition } from "../offline-cognition.js";
import { PAIR_FEATURES_VERSION } from "./pair-features.js";
import { type LearnedPairModel, type PairDecisionPolicy, RELATEDNESS_LABELS } from "./pair-model.js";

const embedder = new HashEmbedder();
const FEATURES = 62;

/** A model that ignores its features: the same probabilities for every pair (`bias` per label). */
function constantModel(
  probabilities: Record<string, number>,
  policy?: PairDecisionPolicy,
  related?: number,
): LearnedPairModel {
  const labels = [...PAIR_LABELS_WITH_FUSION];
  const constant = (labels: string[], p: (label: string) => number) => ({
    labels,
    mean: new Array(FEATURES).fill(0),
    scale: new Array(FEATURES).fill(1),
    weights: labels.map(() => new Array(FEATURES).fill(0)),
    bias: labels.map((l) => Math.log(p(l))),
  });
  return {
    kind: "carecall.pair-operator",
    featuresVersion: PAIR_FEATURES_VERSION,
    embedder: embedder.name,
    trainedOn: "test",
    model: constant(labels, (l) => probabilities[l] ?? 1e-6),
    ...(policy ? { policy } : {}),
    ...(related === undefined
      ? {}
      : { relatedness: constant(RELATEDNESS_LABELS, (l) => (l === "related" ? related : 1 - related)) }),
  };
}

async function decide(model: LearnedPairModel, memory: string, summary: string) {
  const cognition = new OfflineCognition(embedder, { pairOperator: model });
  const { value } = await cognition.run(classifyPairsStep, { about: "Sam", pairs: [{ memory, summary }] });
  return value[0]!;
}

// The rules close an illness that is over ("closes-state"): a rule fires, so "open" keeps it.
const COLD = ["Sam has a cold.", "Sam's cold is gone, Sam has recovered from the cold."] as const;

describe("pair operator policy (saved with the trained model)", () => {
  it("open: a rule that fires decides; all: the model decides every pair", async () => {
    const sureAppend = { APPEND: 0.9, REPLACE: 0.05, PASS: 0.03, DELETE: 0.01, FUSION: 0.01 };
    const open = await decide(
      constantModel(sureAppend, { scope: "open", change: 0.5, delete: 0.7 }),
      ...COLD,
    );
    assert.equal(open.label, "DELETE");
    const all = await decide(constantModel(sureAppend, { scope: "all", change: 0, delete: 0.5 }), ...COLD);
    assert.equal(all.label, "APPEND");
    assert.match(all.rationale ?? "", /learned operator/);
  });

  it("a model file without a policy is used as the open policy", async () => {
    const withoutPolicy = await decide(constantModel({ APPEND: 0.9, REPLACE: 0.1 }), ...COLD);
    assert.equal(withoutPolicy.label, "DELETE");
  });

  it("takes a change only above the policy's gate, and DELETE only above its own", async () => {
    const unsure = { REPLACE: 0.4, APPEND: 0.35, PASS: 0.25 };
    const pair = ["Sam works at the library.", "Sam likes the library's garden."] as const;
    const gated = await decide(constantModel(unsure, { scope: "all", change: 0.5, delete: 0.5 }), ...pair);
    assert.equal(gated.label, "APPEND");
    assert.match(gated.rationale ?? "", /not sure enough/);
    const open = await decide(constantModel(unsure, { scope: "all", change: 0, delete: 0.5 }), ...pair);
    assert.equal(open.label, "REPLACE");
    const weakDelete = { DELETE: 0.45, PASS: 0.3, APPEND: 0.25 };
    const next = await decide(constantModel(weakDelete, { scope: "all", change: 0, delete: 0.5 }), ...pair);
    assert.equal(next.label, "PASS");
  });

  it("evidence: the model decides what rules judge by word overlap alone; rules with evidence decide", async () => {
    const sureAppend = { APPEND: 0.9, REPLACE: 0.05, PASS: 0.03, DELETE: 0.01, FUSION: 0.01 };
    const evidence: PairDecisionPolicy = { scope: "evidence", change: 0.5, delete: 0.7 };
    // "summary-holds-memory": the rules would REPLACE; under "open" they still do.
    const overlap = ["Sam likes green tea.", "Sam likes green tea in the morning."] as const;
    assert.equal(
      (await decide(constantModel(sureAppend, { ...evidence, scope: "open" }), ...overlap)).label,
      "REPLACE",
    );
    assert.equal((await decide(constantModel(sureAppend, evidence), ...overlap)).label, "APPEND");
    // "closes-state" says what changed: the rule decides.
    assert.equal((await decide(constantModel(sureAppend, evidence), ...COLD)).label, "DELETE");
  });

  it("never takes PASS for a summary the memory cannot hold: a new amount, or nothing in common", async () => {
    const surePass = { PASS: 0.8, REPLACE: 0.15, APPEND: 0.03, DELETE: 0.01, FUSION: 0.01 };
    const policy: PairDecisionPolicy = { scope: "all", change: 0.1, delete: 0.7 };
    const rent = "Sam and Dev split the rent, 1200 a month.";
    assert.equal(
      (await decide(constantModel(surePass, policy), rent, "Sam's rent is 1200 a month.")).label,
      "PASS",
    );
    const raised = await decide(constantModel(surePass, policy), rent, "The rent went up to 1400 from May.");
    // The model's answer was PASS: with PASS out, both are kept (not the runner-up REPLACE).
    assert.equal(raised.label, "APPEND");
    assert.match(raised.rationale ?? "", /PASS ruled out/);
    // A date is not an amount: a restatement with the day it was told can still be PASS.
    const dated = await decide(
      constantModel(surePass, policy),
      rent,
      "Sam still splits the rent on 3 May 2024.",
    );
    assert.equal(dated.label, "PASS");
    const stranger = await decide(constantModel(surePass, policy), rent, "Sam's clients are not happy.");
    assert.equal(stranger.label, "APPEND");
    // PASS out does not touch a pair whose answer was something else.
    const sureReplace = { REPLACE: 0.8, PASS: 0.15, APPEND: 0.03, DELETE: 0.01, FUSION: 0.01 };
    const moved = await decide(constantModel(sureReplace, policy), rent, "Sam's clients are not happy.");
    assert.equal(moved.label, "REPLACE");
    assert.doesNotMatch(moved.rationale ?? "", /PASS ruled out/);
  });

  it("the relatedness gate keeps a pair it calls a stranger; without a threshold it is unused", async () => {
    const sureReplace = { REPLACE: 0.9, APPEND: 0.1 };
    const pair = ["Sam works at the library.", "Sam likes the library's garden."] as const;
    const policy: PairDecisionPolicy = { scope: "all", change: 0.5, delete: 0.7, related: 0.5 };
    const stranger = await decide(constantModel(sureReplace, policy, 0.2), ...pair);
    assert.equal(stranger.label, "APPEND");
    assert.match(stranger.rationale ?? "", /related 0\.20: a stranger/);
    assert.equal((await decide(constantModel(sureReplace, policy, 0.8), ...pair)).label, "REPLACE");
    const { related: _, ...ungated } = policy;
    assert.equal((await decide(constantModel(sureReplace, ungated, 0.2), ...pair)).label, "REPLACE");
  });
});
