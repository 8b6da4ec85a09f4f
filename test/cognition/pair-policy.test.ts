import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PAIR_FEATURES_VERSION } from "../../src/cognition/offline/learned/pair-features.js";
import type { LearnedPairModel, PairDecisionPolicy } from "../../src/cognition/offline/learned/pair-model.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { PAIR_LABELS_WITH_FUSION } from "../../src/core/memory-update.js";
import { HashEmbedder } from "../../src/models/test-doubles.js";
import { classifyPairsStep } from "../../src/strategies/carecall/steps/classify-pairs.js";

const embedder = new HashEmbedder();
const FEATURES = 61;

/** A model that ignores its features: the same probabilities for every pair (`bias` per label). */
function constantModel(probabilities: Record<string, number>, policy?: PairDecisionPolicy): LearnedPairModel {
  const labels = [...PAIR_LABELS_WITH_FUSION];
  return {
    kind: "carecall.pair-operator",
    featuresVersion: PAIR_FEATURES_VERSION,
    embedder: embedder.name,
    trainedOn: "test",
    model: {
      labels,
      mean: new Array(FEATURES).fill(0),
      scale: new Array(FEATURES).fill(1),
      weights: labels.map(() => new Array(FEATURES).fill(0)),
      bias: labels.map((l) => Math.log(probabilities[l] ?? 1e-6)),
    },
    ...(policy ? { policy } : {}),
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
});
