/**
 * Offline relation-aware linking (Theanine Phase I-2) without a model: time order is given
 * (older -> newer); the relation comes from the pair operator's change signals, cue words for
 * hindrance, reasons, causes, wants and feelings, and topical similarity. The most specific
 * relation wins; None when the two only share words.
 */
import type { RelationOrNone } from "../../core/relations.js";
import { namePattern } from "../../core/text.js";

import type { RelationDecision } from "../inputs.js";
import { classifyPair, commonTerms } from "./pair-operator.js";

const HINDER =
  /\b(couldn't|could not|can't|cannot|unable|cancel+ed|postponed|delayed|put off|got in the way|prevent\w*|stopped (?:me|him|her|them|\w+) from|injur\w*|broke|rain\w*|too busy|no time|problem|setback|struggl\w*|hard to)\b/i;
const REASON =
  /\b(because|since|due to|the reason|as (?:he|she|they|\w+) (?:was|is|had)|thanks to|that's why)\b/i;
const CAUSE = /\b(so|therefore|as a result|which (?:led|made)|led to|ended up|that made|resulted in|now)\b/i;
const WANT =
  /\b(wants? to|would love to|hopes? to|hoping to|plans? to|planning to|wishes|dreams? of|is going to|looking forward|thinking (?:of|about)|can't wait to|eager to|would like to)\b/i;
const REACT =
  /\b(happy|glad|sad|upset|excited|thrilled|proud|nervous|anxious|stressed|worried|relieved|grateful|thankful|angry|frustrated|disappointed|overjoyed|heartbroken|lonely|scared|feels?|felt|love[sd]? it|amazing|awesome|terrible)\b/i;

export const LINK_THRESHOLDS = {
  /** At or above this cosine two memories are related whatever their words. */
  similar: 0.65,
  /** With a shared common word (not a name), this cosine suffices. */
  withSharedWord: 0.45,
};

export function relateOffline(older: string, newer: string, about: string, cosine: number): RelationDecision {
  // Memories about one person all look alike to the encoder; a shared common word (not a name)
  // or a high similarity is what makes two of them related.
  const newerTerms = commonTerms(newer, about);
  const shared = [...commonTerms(older, about)].filter((t) => newerTerms.has(t)).length;
  const decide = (relation: RelationOrNone, why: string): RelationDecision => ({
    relation,
    rationale: `${why} (cosine ${cosine.toFixed(2)}, ${shared} shared words)`,
  });
  const related =
    cosine >= LINK_THRESHOLDS.similar || (shared >= 1 && cosine >= LINK_THRESHOLDS.withSharedWord);
  if (!related) return decide("None", "not about the same thing");
  const op = classifyPair(older, newer, about, { cosine }).label;
  if (op === "REPLACE" || op === "DELETE" || op === "FUSION")
    return decide("Changed", `the newer memory changes the older one (${op})`);
  if (HINDER.test(newer)) return decide("HinderedBy", "something gets in the way");
  if (REASON.test(newer)) return decide("Reason", "the newer memory gives a reason");
  if (WANT.test(newer)) return decide("Want", "the newer memory is a wish or plan that follows");
  if (REACT.test(newer)) return decide("React", "the newer memory is a feeling about it");
  if (CAUSE.test(newer)) return decide("Cause", "the older memory led to the newer one");
  return decide("SameTopic", "same topic");
}

const DATE_PHRASE =
  /\b(?:on|in|during|since|by|around|about)\s+(?:the\s+)?(?:(?:week|weekend)\s+(?:of|before|after)\s+)?(?:about\s+)?(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}\b|\b(?:in|since)\s+\d{4}\b/g;

/**
 * What a memory says, without who or when: names and dates make every memory about one person
 * look alike to a sentence encoder, so relations are judged on the gist.
 */
export function gist(text: string, about: string): string {
  let out = text.replace(DATE_PHRASE, " ");
  for (const name of about.split(/,\s*/).filter(Boolean)) out = out.replace(namePattern(name, "g"), "they");
  return out.replace(/\s+/g, " ").trim();
}
