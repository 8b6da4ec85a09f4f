/**
 * The learned standing-instruction detector: logistic regression over `standingFeatures`, and,
 * for the encoder it was trained with, the sentence's vector too; trained on labelled utterances
 * by `npm run train -- standing` (weights in data/models/standing.json). Other encoders get the
 * detector trained on the parse features alone. An utterance of several sentences is read
 * sentence by sentence: the sentence most likely to be standing speaks for it (the training does
 * the same, see lab/eval/standing/train.ts).
 */
import { prefixAtWord } from "../../../core/text.js";
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

/** A sentence's feature row for a detector: parse features, then the vector when it reads one. */
export function standingRow(detector: StandingDetector, sentence: string, vector?: Float32Array): number[] {
  const parsed = standingFeatures(sentence);
  return detector.embedder && vector ? [...parsed, ...vector] : parsed;
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
}

/**
 * How each utterance reads: its most standing-like sentence, labelled with its most probable
 * label other than `none` when that sentence passes the detector's threshold, else `none`.
 * Every sentence is embedded in one call when the detector reads vectors.
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
  let at = 0;
  return sentences.map((list, u) => {
    let best: StandingReading = { label: "none", p: 0, sentence: utterances[u]! };
    for (const sentence of list) {
      const p = standingProbabilities(detector, standingRow(detector, sentence, vectors[at++]));
      const standing = 1 - p[0]!;
      if (standing <= best.p) continue;
      let k = 1;
      for (let j = 2; j < p.length; j++) if (p[j]! > p[k]!) k = j;
      best = { label: standing >= detector.threshold ? STANDING_LABELS[k]! : "none", p: standing, sentence };
    }
    return best;
  });
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
