/**
 * Features of a (stored memory, new summary sentence) pair for the learned CareCall operator:
 * how close the two sentences' gists are (names and dates left out) and how that closeness
 * stands among the call's other pairs, how their frames meet (shared terms each way, polarity,
 * plans, tense, numbers, verbs), lexical relations from WordNet, and the hand-written rule
 * operator's answer and which of its rules gave it (the rules were written on other data).
 *
 * The encoder's vectors themselves are not features (version 1 had them: 2,048 columns beside
 * ~60). Cross-validated on memory-ops they added nothing (80.0 % with, 81.1 % without), and on
 * real conversations they made the operator see updates everywhere: it had learned what the
 * labelled sentences are about, not how two sentences relate.
 */
import { PAIR_LABELS_WITH_FUSION } from "../../../core/memory-update.js";
import { cosine } from "../../../core/vector.js";
import { coverage, FRAME_ASPECTS, type Frame } from "../frame.js";
import { expandSynonyms, lexicalRelations } from "../lexicon.js";
import { RULE_REASONS, type RuleDecision } from "../pair-operator.js";

export interface PairSide {
  text: string;
  frame: Frame;
  vector: Float32Array;
}

/** Bumped whenever the features change; a model trained on other features is refused. */
export const PAIR_FEATURES_VERSION = 4;

/**
 * How a pair stands among the other pairs of the same call: the closest memory for a summary
 * sentence is more likely the one it updates. Cosines of gist vectors.
 */
export interface PairContext {
  /** Highest cosine between this summary sentence and any memory in the call. */
  bestForSummary: number;
  /** Highest cosine between this memory and any summary sentence in the call. */
  bestForMemory: number;
}

export function pairFeatures(
  memory: PairSide,
  summary: PairSide,
  rule: Pick<RuleDecision, "label" | "reason">,
  context: PairContext,
): number[] {
  const m = memory.frame;
  const s = summary.frame;
  const shared = [...m.terms].filter((t) => s.terms.has(t)).length;
  const union = m.terms.size + s.terms.size - shared;
  const lex = lexicalRelations(m.terms, s.terms);
  const sameNumbers =
    m.numbers.length > 0 && s.numbers.length > 0 && m.numbers.every((n) => s.numbers.includes(n));
  const cos = cosine(memory.vector, summary.vector);
  return [
    cos,
    cos - context.bestForSummary,
    cos - context.bestForMemory,
    +(cos >= context.bestForSummary),
    +(cos >= context.bestForMemory),
    coverage(s.terms, m.terms),
    coverage(m.terms, s.terms),
    union ? shared / union : 0,
    Math.min(shared, 5),
    Math.log1p(m.terms.size),
    Math.log1p(s.terms.size),
    Math.log1p(m.terms.size) - Math.log1p(s.terms.size),
    +m.negated,
    +s.negated,
    +(s.negated && !m.negated),
    +(m.negated && !s.negated),
    +m.plan,
    +s.plan,
    +(m.plan && !s.plan),
    ...oneHot(m.tense, ["past", "present", "future"]),
    ...oneHot(s.tense, ["past", "present", "future"]),
    +(m.numbers.length > 0),
    +(s.numbers.length > 0),
    +(m.numbers.length > 0 && s.numbers.length > 0 && !sameNumbers),
    +sameNumbers,
    +m.verbs.some((v) => s.verbs.includes(v)),
    +m.firstPerson,
    ...FRAME_ASPECTS.map((a) => +s.aspects.has(a)),
    ...FRAME_ASPECTS.map((a) => +m.aspects.has(a)),
    lex.antonyms,
    lex.synonyms,
    lex.related,
    coverage(s.terms, expandSynonyms(m.terms)),
    ...oneHot(rule.label, PAIR_LABELS_WITH_FUSION),
    ...oneHot(rule.reason, RULE_REASONS),
  ];
}

export function oneHot<T>(value: T | null, values: readonly T[]): number[] {
  return values.map((v) => +(v === value));
}
