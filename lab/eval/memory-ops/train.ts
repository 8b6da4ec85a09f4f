/**
 * Training the offline models from labelled data: feature rows for every gold pair, then
 * logistic regression. Used by `npm run train` (the shipped models) and by cross-validation in
 * `memlane eval carecall|links --folds k` (one model per fold, never shown the fold it scores).
 */

import { LINK_FEATURES_VERSION } from "../../../src/cognition/offline/learned/link-features.js";
import {
  type LearnedLinkModel,
  LINK_LABELS,
  linkRow,
} from "../../../src/cognition/offline/learned/link-model.js";
import { trainLogistic } from "../../../src/cognition/offline/learned/logistic.js";
import { PAIR_FEATURES_VERSION } from "../../../src/cognition/offline/learned/pair-features.js";
import {
  type LearnedPairModel,
  OPEN_BUCKET_POLICY,
  type PairDecisionPolicy,
  pairRows,
  pairSides,
  RELATEDNESS_LABELS,
} from "../../../src/cognition/offline/learned/pair-model.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import { PAIR_LABELS_WITH_FUSION } from "../../../src/core/memory-update.js";
import type { Embedder } from "../../../src/models/embedder.js";
import type { CarecallExample } from "../carecall/dataset.js";
import type { LinkExample } from "../links/evaluate.js";
import { withForeignMemories } from "./foreign-memories.js";

/** The training settings, chosen by 5-fold cross-validation on the dev part of memory-ops. */
export const TRAINING = { l2: 0.01, epochs: 200, learningRate: 0.05 };

/**
 * How a trained pair operator is used (saved in its file; `PairDecisionPolicy.scope` says which
 * pairs the model decides). "open" and "evidence": a change at p >= 0.5, DELETE at p >= 0.7.
 * "all": the most probable answer, DELETE only at p >= 0.5. Each also needs the relatedness
 * gate's p(related) >= 0.5 when the model has a gate. "evidence" ships; lab/README.md,
 * "How the offline operator is built and measured", says how each was measured.
 * `npm run train -- models --policy open|evidence|all` builds any of them.
 */
export const PAIR_POLICIES: Record<PairDecisionPolicy["scope"], PairDecisionPolicy> = {
  open: OPEN_BUCKET_POLICY,
  evidence: { scope: "evidence", change: 0.5, delete: 0.7, related: 0.5 },
  all: { scope: "all", change: 0, delete: 0.5, related: 0.5 },
};
export const PAIR_POLICY: PairDecisionPolicy = PAIR_POLICIES.evidence;

/**
 * Foreign memories per training episode (`foreign-memories.ts`): the strangers the relatedness
 * gate learns from. 0 trains no gate. 3 chosen on memory-ops' dev folds and the tune half of
 * data/carecall/real-candidates (6 and 10 did no better).
 * `eval carecall --folds 5 --foreign N` measures another count.
 */
export const FOREIGN_MEMORIES = 3;

/** The policy called `name`, or a typed error naming the choices. */
export function pairPolicyNamed(name: string): PairDecisionPolicy {
  if (!Object.hasOwn(PAIR_POLICIES, name))
    throw new InvalidInputError(`unknown pair policy "${name}": ${Object.keys(PAIR_POLICIES).join(" or ")}`);
  return PAIR_POLICIES[name as PairDecisionPolicy["scope"]];
}

/** A count of foreign memories per episode from the command line, or a typed error. */
export function foreignCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidInputError(`--foreign must be a whole number of at least 0, not "${value}"`);
  return n;
}

interface Labelled {
  x: number[];
  y: string;
}

/** A training row of the pair operator; `foreign` rows pair a summary with another episode's memory. */
export interface PairTrainingRow extends Labelled {
  foreign: boolean;
}

/**
 * One row per gold-labelled pair, featurised exactly as the offline step does at run time, plus
 * one per pair of a summary sentence with each of its episode's `foreign` foreign memories. The
 * foreign memories are in every row's context (how close a pair is beside the episode's other
 * pairs), as retrieved strangers are at run time.
 */
export async function pairTrainingRows(
  episodes: CarecallExample[],
  embedder: Embedder,
  foreign = FOREIGN_MEMORIES,
): Promise<PairTrainingRow[]> {
  const rows: PairTrainingRow[] = [];
  const widened = await withForeignMemories(episodes, embedder, foreign);
  for (const [n, e] of widened.entries()) {
    if (!e.pairs?.length) continue;
    const own = episodes[n]!.pairs?.length ?? 0;
    const sides = await pairSides([...e.memory, ...e.summary], e.about, embedder);
    const all = e.memory.flatMap((m) =>
      e.summary.map((s) => ({ memory: sides.get(m)!, summary: sides.get(s)! })),
    );
    const xs = pairRows(all, e.about);
    for (const [k, p] of e.pairs.entries())
      rows.push({ x: xs[p.m * e.summary.length + p.s]!, y: p.op, foreign: k >= own });
  }
  return rows;
}

/**
 * The operator, trained on the gold pairs only, and, when there are foreign rows, its relatedness
 * gate: foreign pairs are strangers, gold pairs labelled with a change are related. Gold APPEND
 * pairs stay out of the gate: some are close to an update, some are strangers, and the operator
 * already answers APPEND for them.
 */
export function fitPairModel(
  rows: PairTrainingRow[],
  embedder: Embedder,
  trainedOn: string,
  policy: PairDecisionPolicy = PAIR_POLICY,
): LearnedPairModel {
  const gold = rows.filter((r) => !r.foreign);
  const gate = rows.filter((r) => r.foreign || r.y !== "APPEND");
  const train = (of: PairTrainingRow[], labels: string[], y: (r: PairTrainingRow) => string) =>
    trainLogistic(
      of.map((r) => r.x),
      of.map(y),
      labels,
      TRAINING,
    );
  return {
    policy,
    kind: "carecall.pair-operator",
    featuresVersion: PAIR_FEATURES_VERSION,
    embedder: embedder.name,
    trainedOn,
    model: train(gold, [...PAIR_LABELS_WITH_FUSION], (r) => r.y),
    ...(rows.some((r) => r.foreign)
      ? {
          relatedness: train(gate, RELATEDNESS_LABELS, (r) => (r.foreign ? "stranger" : "related")),
        }
      : {}),
  };
}

export async function linkTrainingRows(examples: LinkExample[], embedder: Embedder): Promise<Labelled[]> {
  const rows: Labelled[] = [];
  for (const e of examples) {
    const sides = await pairSides([e.older, e.newer], e.about, embedder);
    const older = { ...sides.get(e.older)!, at: e.older_at };
    const newer = { ...sides.get(e.newer)!, at: e.newer_at };
    rows.push({ x: linkRow(older, newer, e.about), y: e.relation });
  }
  return rows;
}

export function fitLinkModel(rows: Labelled[], embedder: Embedder, trainedOn: string): LearnedLinkModel {
  return {
    kind: "theanine.relation-linker",
    featuresVersion: LINK_FEATURES_VERSION,
    embedder: embedder.name,
    trainedOn,
    model: trainLogistic(
      rows.map((r) => r.x),
      rows.map((r) => r.y),
      LINK_LABELS,
      TRAINING,
    ),
  };
}
