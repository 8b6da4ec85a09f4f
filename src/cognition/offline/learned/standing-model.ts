/**
 * The learned standing-instruction detector: logistic regression over `standingFeatures`, and,
 * for the encoder it was trained with, the sentence's vector too; trained on labelled utterances
 * by `npm run train -- standing` (weights in data/models/standing.json). Other encoders get the
 * detector trained on the parse features alone. An utterance of several sentences is read
 * sentence by sentence: the sentence most likely to be standing speaks for it (the training does
 * the same, see lab/eval/standing/train.ts).
 */

import { prefixAtWord } from "../../../core/text.js";
import { breathe } from "../../../core/yield-to-loop.js";
import type { Embedder } from "../../../models/embedder.js";
import { STANDING_FEATURES, standingFeatures } from "../standing-features.js";
import { PARSED_CHARS } from "../summarize.js";
import { type LogisticModel, predictProba } from "./logistic.js";
import { loadModel } from "./model-file.js";

/** The detector's labels: a new instruction or preference, one taken back, or none. */
export const STANDING_LABELS = ["none", "instruction", "preference", "revoke"] as const;
export type StandingLabel = (typeof STANDING_LABELS)[number];

/** One trained detector: over the parse features alone (`embedder` null), or with one encoder's vectors. */
export interface StandingDetector {
  embedder: string | null;
  model: LogisticModel;
  /** Least probability of not being `none` at which a sentence counts as standing (chosen by cross-validation). */
  threshold: number;
}

export interface LearnedStandingModel {
  kind: "standing.detector";
  features: string[];
  trainedOn: string;
  detectors: StandingDetector[];
  /** Least cosine between a new standing sentence and one in force for it to replace that one. */
  replaceAt: number;
  /** Least cosine between a taking-back sentence and one in force for it to take that one back. */
  revokeAt: number;
}

/** The model that ships with memlane, or null when missing or built for other features. */
export const shippedStandingModel = loadModel<LearnedStandingModel>(
  "standing.json",
  (m) => m.kind === "standing.detector" && m.features.join() === STANDING_FEATURES.join(),
);

/** The detector for this encoder: the one trained with it, else the parse-only one. */
export function detectorFor(model: LearnedStandingModel, embedder: string): StandingDetector | null {
  return (
    model.detectors.find((d) => d.embedder === embedder) ??
    model.detectors.find((d) => d.embedder === null) ??
    null
  );
}

/** A sentence's feature row: parse features, then the encoder's vector for a detector that reads one. */
export function standingRow(sentence: string, vector?: Float32Array): number[] {
  const parsed = standingFeatures(sentence);
  return vector ? [...parsed, ...vector] : parsed;
}

/** One row's label probabilities, in STANDING_LABELS order. */
export function standingProbabilities(detector: StandingDetector, row: number[]): number[] {
  const p = predictProba(detector.model, row);
  return STANDING_LABELS.map((label) => p[detector.model.labels.indexOf(label)] ?? 0);
}

export interface StandingReading {
  label: StandingLabel;
  /** Probability that it is standing (not `none`). */
  p: number;
  /** The sentence that speaks for the utterance. */
  sentence: string;
  /** That sentence's vector, when the detector read one (the caller need not embed it again). */
  vector?: Float32Array;
}

/**
 * How a detector reads one utterance from its sentences' rows: the most standing-like row (`at`,
 * -1 when none is at all), labelled with its most probable label other than `none` when it passes
 * the detector's threshold, else `none`. Training and cross-validation read utterances the same way.
 */
export function readRows(
  detector: StandingDetector,
  rows: number[][],
): { label: StandingLabel; p: number; at: number } {
  let best: { label: StandingLabel; p: number; at: number } = { label: "none", p: 0, at: -1 };
  for (const [at, row] of rows.entries()) {
    const p = standingProbabilities(detector, row);
    const standing = 1 - p[0]!;
    if (standing <= best.p) continue;
    let k = 1;
    for (let j = 2; j < p.length; j++) if (p[j]! > p[k]!) k = j;
    best = { label: standing >= detector.threshold ? STANDING_LABELS[k]! : "none", p: standing, at };
  }
  return best;
}

/**
 * How each utterance reads (readRows), from its sentences. Every sentence is embedded in one call
 * when the detector reads vectors.
 */
export async function readStanding(
  model: LearnedStandingModel,
  utterances: string[],
  embedder: Embedder,
): Promise<StandingReading[]> {
  const detector = detectorFor(model, embedder.name);
  const sentences = utterances.map(sentencesIn);
  if (!detector) return utterances.map((u) => ({ label: "none", p: 0, sentence: u }));
  const vectors = detector.embedder ? await embedder.embed(sentences.flat()) : [];
  let from = 0;
  const readings: StandingReading[] = [];
  for (const [u, list] of sentences.entries()) {
    // This utterance's vectors: none when the detector reads the parse features alone.
    const own = vectors.slice(from, from + list.length);
    from += list.length;
    // Each sentence is parsed (about half a millisecond): a long utterance of thousands of them
    // gives the loop back between sentences rather than holding it for seconds.
    const rows: number[][] = [];
    for (const [i, s] of list.entries()) {
      rows.push(standingRow(s, own[i]));
      const pause = breathe();
      if (pause) await pause;
    }
    const { label, p, at } = readRows(detector, rows);
    readings.push(
      at < 0 ? { label, p, sentence: utterances[u]! } : { label, p, sentence: list[at]!, vector: own[at] },
    );
  }
  return readings;
}

/**
 * The sentences of an utterance, cut at sentence ends only (a comma after "from now on" must not
 * part it from its command), each read on its first PARSED_CHARS characters. Bracketed asides
 * ("[shares a photo: …]", as transcripts mark pictures) are not said, so they are left out.
 */
export function sentencesIn(utterance: string): string[] {
  return utterance
    .replace(/\[[^\]]*\]/g, " ")
    .split(/(?<=[.!?…])\s+/)
    .map((s) => prefixAtWord(s.trim(), PARSED_CHARS))
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}
