/**
 * The learned Theanine relation linker: logistic regression over `linkFeatures`, trained on
 * labelled (older, newer, relation) pairs by `npm run train` (weights in
 * data/models/relation-linker.json). Like the pair operator, it answers only for the encoder it
 * was trained with; other encoders get the rule linker.
 */
import { RELATIONS_OR_NONE, type RelationOrNone } from "../../../core/relations.js";
import { cosine } from "../../../core/vector.js";
import type { RelationDecision } from "../../inputs.js";
import { classifyPair } from "../pair-operator.js";
import { relateOffline } from "../relation-linker.js";
import { LINK_FEATURES_VERSION, linkFeatures } from "./link-features.js";
import { type LogisticModel, predictProba, topLabels } from "./logistic.js";
import { loadModel } from "./model-file.js";
import type { PairSide } from "./pair-features.js";

export interface LearnedLinkModel {
  kind: "theanine.relation-linker";
  featuresVersion: number;
  embedder: string;
  trainedOn: string;
  model: LogisticModel;
}

export interface DatedSide extends PairSide {
  at: string;
}

/** The feature row of one older -> newer pair (the rule linker's answers are features too). */
export function linkRow(older: DatedSide, newer: DatedSide, about: string): number[] {
  const c = cosine(older.vector, newer.vector);
  const days = (Date.parse(newer.at) - Date.parse(older.at)) / 86_400_000;
  return linkFeatures(older, newer, Number.isFinite(days) ? days : 0, {
    operator: classifyPair(older.text, newer.text, about, { cosine: c }).label,
    relation: relateOffline(older.text, newer.text, about, c).relation,
  });
}

export function decideLink(model: LearnedLinkModel, row: number[]): RelationDecision {
  const p = predictProba(model.model, row);
  let best = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
  const relation = model.model.labels[best] as RelationOrNone;
  return { relation, rationale: `learned linker: ${topLabels(model.model.labels, p)}` };
}

/** The model that ships with memlane, or null when missing or built for other features. */
export const shippedLinkModel = loadModel<LearnedLinkModel>(
  "relation-linker.json",
  (m) => m.kind === "theanine.relation-linker" && m.featuresVersion === LINK_FEATURES_VERSION,
);

/** The labels a relation model must have, in order. */
export const LINK_LABELS = [...RELATIONS_OR_NONE];
