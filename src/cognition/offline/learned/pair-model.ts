/**
 * The learned CareCall pair operator: logistic regression over `pairFeatures`, trained on
 * labelled (memory, summary) pairs by `npm run train` (weights in data/models/pair-operator.json).
 * Its closeness features are cosines of the bundled encoder, whose scale another encoder does not
 * share, so the model answers only for the encoder it was trained with; others get the rules.
 */
import { PAIR_LABELS, type PairLabelWithFusion } from "../../../core/memory-update.js";
import { cosine } from "../../../core/vector.js";
import type { Embedder } from "../../../models/embedder.js";
import type { PairDecision } from "../../inputs.js";
import { parseFrame } from "../frame.js";
import { classifyPair, RULE_LEFT_OPEN, RULES_ON_OVERLAP, type RuleReason } from "../pair-operator.js";
import { gist } from "../relation-linker.js";
import { type LogisticModel, predictProba, topLabels } from "./logistic.js";
import { loadModel } from "./model-file.js";
import { PAIR_FEATURES_VERSION, type PairSide, pairFeatures } from "./pair-features.js";

export interface LearnedPairModel {
  kind: "carecall.pair-operator";
  featuresVersion: number;
  /** The encoder whose vectors the model was trained on. */
  embedder: string;
  /** What it was trained on (file, part, count), for the record. */
  trainedOn: string;
  model: LogisticModel;
  /** How its probabilities become decisions; files without one get `OPEN_BUCKET_POLICY`. */
  policy?: PairDecisionPolicy;
  /**
   * The relatedness gate: a second logistic model over the same features, labels
   * `RELATEDNESS_LABELS`, trained to tell update pairs from retrieval-shaped strangers (memories of
   * other episodes, `foreign-memories.ts`). Kept apart from the operator so the strangers do not
   * dilute what it learned about updates. Files without one have no gate.
   */
  relatedness?: LogisticModel;
}

/** The relatedness gate's labels: a stranger the retrieval brought, or a pair that may be an update. */
export const RELATEDNESS_LABELS = ["stranger", "related"];

/**
 * Which pairs the model decides and how sure it must be to change memory. Chosen when the model
 * is trained and saved with it, so a file says how it is meant to be used.
 */
export interface PairDecisionPolicy {
  /**
   * Which pairs the model decides. "open": those no rule decides (`RULE_LEFT_OPEN`); "evidence":
   * those and the ones rules decide on word overlap alone (`RULES_ON_OVERLAP`), so rules decide
   * only where the text says what changed (a negation, an ended state, a new value); "all": every pair.
   */
  scope: "open" | "evidence" | "all";
  /** Least probability for any answer but APPEND (below it: APPEND). */
  change: number;
  /** Least probability for DELETE (below it: the next best answer). */
  delete: number;
  /** Least probability of "related" from the model's gate for any answer but APPEND (no gate: unused). */
  related?: number;
}

/** Whether a model used with `scope` decides a pair the rules answered for `reason`. */
export function modelDecides(scope: PairDecisionPolicy["scope"], reason: RuleReason): boolean {
  if (scope === "all" || reason === RULE_LEFT_OPEN) return true;
  return scope === "evidence" && RULES_ON_OVERLAP.includes(reason);
}

/** Frames and gist vectors of sentences, one embedding call for all of them. */
export async function pairSides(
  texts: string[],
  about: string,
  embedder: Embedder,
): Promise<Map<string, PairSide>> {
  const unique = [...new Set(texts)];
  const vectors = await embedder.embed(unique.map((t) => gist(t, about)));
  return new Map(
    unique.map((text, i) => [text, { text, frame: parseFrame(text, about), vector: vectors[i]! }]),
  );
}

/**
 * The feature rows of pairs decided together (the rule operator's answer is one feature; how
 * close each pair is beside the others of the call is another).
 */
export function pairRows(pairs: { memory: PairSide; summary: PairSide }[], about: string): number[][] {
  const cos = pairs.map((p) => cosine(p.memory.vector, p.summary.vector));
  const best = (key: (i: number) => string) => {
    const max = new Map<string, number>();
    cos.forEach((c, i) => {
      max.set(key(i), Math.max(max.get(key(i)) ?? -1, c));
    });
    return (i: number) => max.get(key(i))!;
  };
  const forSummary = best((i) => pairs[i]!.summary.text);
  const forMemory = best((i) => pairs[i]!.memory.text);
  return pairs.map((p, i) =>
    pairFeatures(
      p.memory,
      p.summary,
      classifyPair(p.memory.text, p.summary.text, about, { cosine: cos[i]! }),
      {
        bestForSummary: forSummary(i),
        bestForMemory: forMemory(i),
      },
    ),
  );
}

/**
 * The policy of models trained before policies were saved: the model decides only what the rules
 * leave open, a change needs p >= 0.5 (chosen between 0.5 and 0.7 on memory-ops' dev folds and
 * locomo-dev) and a DELETE p >= 0.7 (set by the cost of a wrong DELETE).
 */
export const OPEN_BUCKET_POLICY: PairDecisionPolicy = {
  scope: "open",
  change: 0.5,
  delete: 0.7,
  related: 0.5,
};

/**
 * The model's decision for one pair; without FUSION the best of the paper's four labels. `pass`
 * false: the memory cannot hold the summary (see `canHold`), so PASS is out; when PASS was the
 * model's answer the pair stays APPEND (both kept), not the runner-up change.
 */
export function decidePair(model: LearnedPairModel, row: number[], fusion = true, pass = true): PairDecision {
  const policy = model.policy ?? OPEN_BUCKET_POLICY;
  const p = predictProba(model.model, row);
  const allowed = model.model.labels.map(
    (l) => (fusion || (PAIR_LABELS as readonly string[]).includes(l)) && (pass || l !== "PASS"),
  );
  let best = -1;
  for (let k = 0; k < p.length; k++)
    if ((allowed[k] || model.model.labels[k] === "PASS") && (best < 0 || p[k]! > p[best]!)) best = k;
  if (!pass && model.model.labels[best] === "PASS")
    return {
      label: "APPEND",
      rationale: `learned operator: ${topLabels(model.model.labels, p)} (PASS ruled out: the memory cannot hold the summary)`,
    };
  // A wrong DELETE costs most: it retires the new sentence too, so a fact that just arrived
  // ("moved to Bristol") leaves active memory. DELETE must be confident; otherwise the next best.
  if (model.model.labels[best] === "DELETE" && p[best]! < policy.delete) {
    const deleted = best;
    best = -1;
    for (let k = 0; k < p.length; k++)
      if (k !== deleted && allowed[k] && (best < 0 || p[k]! > p[best]!)) best = k;
  }
  const label = model.model.labels[best] as PairLabelWithFusion;
  const rationale = `learned operator: ${topLabels(model.model.labels, p)}`;
  // Every answer but APPEND retires a sentence (PASS the new one, the others the memory), and a
  // wrong retirement loses a fact, where a wrong APPEND only keeps an old one beside the new.
  // Labelled pairs are mostly updates; a real conversation's related pairs mostly are not. So a
  // change is taken only when the model is sure of it.
  if (label !== "APPEND" && p[best]! < policy.change)
    return { label: "APPEND", rationale: `${rationale} (not sure enough to change memory)` };
  // Most memories retrieval brings are about something else; the gate keeps those as they are.
  if (label !== "APPEND" && model.relatedness && policy.related !== undefined) {
    const related = predictProba(model.relatedness, row)[RELATEDNESS_LABELS.indexOf("related")]!;
    if (related < policy.related)
      return { label: "APPEND", rationale: `${rationale} (related ${related.toFixed(2)}: a stranger, kept)` };
  }
  return { label, rationale };
}

/** The model that ships with memlane, or null when the file is missing or was built for other features. */
export const shippedPairModel = loadModel<LearnedPairModel>(
  "pair-operator.json",
  (m) => m.kind === "carecall.pair-operator" && m.featuresVersion === PAIR_FEATURES_VERSION,
);
