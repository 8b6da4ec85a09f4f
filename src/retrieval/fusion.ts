/**
 * How recall's signals become one score, for memories and turns alike. Units are numbered
 * (`doc`); each fusion returns, per scored unit, its explanation: every signal's value and the
 * fused `score` (unrounded; hits round them for display).
 *
 * - `fuseScaled` (the default): dense, BM25 and source evidence (memories scored through their
 *   source turns) are each divided by their best value for this query, so none wins by its
 *   units, then weighted and summed into a content score. A unit whose subject the question
 *   names, that was said at the time the question asks about, or (for a question asking when)
 *   whose words place something in time, earns a fixed bonus; a question
 *   about the present favours newer units; and each unit earns a share of the best content score
 *   among its neighbours (adjacent turns of the same session, or memories linked by an edge) —
 *   graph expansion, which can also bring in a unit no ranker found.
 * - `fuseRrf`: reciprocal rank fusion of dense and BM25, the textbook floor.
 */

import { type Scored, TopK } from "./top-k.js";

export type { Scored };

export interface FusionInput {
  /** Dense similarities of the candidates (any order). */
  dense: Scored[];
  /** BM25 scores of the units that matched the query's terms (any order). */
  lexical: Scored[];
  /** Whether the question names the unit's subject (a memory's `about`, a turn's speaker). */
  subject?: (doc: number) => boolean;
  /** Whether the unit was said in a time range the question asks about. */
  time?: (doc: number) => boolean;
  /**
   * Whether the unit's words place something in time; given only when the question asks for a
   * time ("When did…?"), whose answer rests on the unit that dates the event.
   */
  dated?: (doc: number) => boolean;
  /**
   * How recent the unit is, 0 (the scope's oldest) to 1 (its newest); given only when the question
   * asks about the present ("now", "currently", "still"…).
   */
  recency?: (doc: number) => number;
  /**
   * Evidence from another unit: for memories, the scores of their source turns in the turn search
   * (a memory whose sentence lost the words of the question is still found through what was said).
   */
  source?: Scored[];
  /** Units linked to this one (adjacent turns, memories joined by an edge). */
  neighbours?: (doc: number) => Iterable<number>;
  /** Whether the unit asks a question (a turn ending in "?"): what it says is rarely the answer. */
  asks?: (doc: number) => boolean;
  /** The unit's length in characters: a longer turn says more. */
  length?: (doc: number) => number;
}

export interface FusionWeights {
  dense: number;
  bm25: number;
  subject: number;
  time: number;
  dated: number;
  recency: number;
  source: number;
  neighbour: number;
  /** Taken off a unit that asks a question (turns). Absent: 0. */
  question?: number;
  /** Per natural log of the unit's length in characters (turns). Absent: 0. */
  length?: number;
}

export type Explanation = Record<string, number>;

/**
 * Weights of the scaled fusion, from a grid search on locomo-dev turns, categories 1-4 (see
 * `npm run lab -- eval recall`): recall@10 0.801 and @25 0.894; without the time signal 0.780 / 0.886.
 * Those are in-sample: chosen on all three conversations, the grid's other points win when one
 * conversation is held out (bm25 0.5-1.5, subject 0.35-1, neighbour 0.55-0.8), and the held-out
 * R@10 is 0.791. `dated` (0.35) is the one weight judged held out: chosen on two conversations,
 * scored on the third, it lifted temporal R@1 on each (0.65 -> 0.70, 0.65 -> 0.77, 0.61 -> 0.72;
 * 0.35 and 0.7 within 0.01 of each other, 0.35 kept as the milder).
 * Recency (only for questions about the present) does not move LoCoMo — its "recently" means
 * "at the time of that session" — up to 0.5 on turns and memories alike; it settles which of two
 * equally relevant versions is current.
 * `question` and `length` are the unit's shape, not its words: a turn that asks a question rarely
 * holds the answer, and a longer turn says more. Both were chosen on R@10 over seven conversations
 * (LoCoMo dev and the second hand's recall-dev) and checked leave-one-conversation-out: every fold
 * chose a penalty of 0.3 and 0.05 per log character (one 0.1), and every held-out conversation
 * gained (pooled R@10 0.793 -> 0.819, multi-hop 0.570 -> 0.642). Rerun:
 * `node --import tsx lab/eval/recall/leave-one-out.ts LOCOMO.json,lab/data/recall-dev/conversations.json shape`.
 */
export const FUSION_WEIGHTS: FusionWeights = {
  dense: 1,
  bm25: 1,
  subject: 0.7,
  time: 0.7,
  dated: 0.35,
  recency: 0.5,
  source: 0,
  neighbour: 0.55,
  question: 0.3,
  length: 0.05,
};

/**
 * Memories use the same weights, plus their source turns' evidence, without graph expansion. On
 * locomo-dev memory units, scoring memories through their source turns (weight 5) lifted carecall
 * R@5/10/25 from 0.361 / 0.431 / 0.493 to 0.518 / 0.551 / 0.582 (1: 0.519 @10, 2: 0.526, 3: 0.539,
 * 8 and 12 no better). Expanding through edges lowered theanine R@10 from 0.442 to 0.411 at 0.55
 * and to 0.417 at 0.15 — linked memories from other sessions push out the asked one; theanine
 * follows its edges itself, as timelines. `dated` on memories themselves moved nothing on
 * locomo-dev (carecall R@10 0.547 either way); they get it through their source turns' scores.
 * Pass `weights` to choose otherwise.
 */
export const MEMORY_WEIGHTS: FusionWeights = {
  ...FUSION_WEIGHTS,
  neighbour: 0,
  source: 5,
  dated: 0,
  question: 0,
  length: 0,
};

/**
 * A yes/no signal that depends on one field of the unit (a memory's `about`; the turn index
 * numbers its speakers instead): `test` runs once per distinct value in a query, not once per
 * candidate (lower-casing and matching every candidate's name showed in profiles of large scopes).
 */
export function perValue<K>(
  fieldOf: (doc: number) => K,
  test: (value: K) => boolean,
): (doc: number) => boolean {
  const known = new Map<K, boolean>();
  return (doc) => {
    const value = fieldOf(doc);
    let yes = known.get(value);
    if (yes === undefined) {
      yes = test(value);
      known.set(value, yes);
    }
    return yes;
  };
}

/** RRF constant: 60 is the value of the original paper and the usual default. */
export const RRF_K = 60;

/** What the scaled fusion knows of each unit before its bonuses: its content score and the best content score among its neighbours. */
interface ScaledParts {
  content: Map<number, number>;
  near: Map<number, number>;
}

function scaledParts(input: FusionInput, w: FusionWeights): ScaledParts {
  let maxDense = 1e-9;
  let maxLex = 1e-9;
  for (const d of input.dense) if (d.score > maxDense) maxDense = d.score;
  for (const l of input.lexical) if (l.score > maxLex) maxLex = l.score;
  const content = new Map<number, number>();
  for (const d of input.dense) content.set(d.doc, w.dense * (Math.max(0, d.score) / maxDense));
  for (const l of input.lexical) content.set(l.doc, (content.get(l.doc) ?? 0) + w.bm25 * (l.score / maxLex));
  if (input.source && w.source > 0) {
    let maxSource = 1e-9;
    for (const x of input.source) if (x.score > maxSource) maxSource = x.score;
    for (const x of input.source)
      content.set(x.doc, (content.get(x.doc) ?? 0) + w.source * (x.score / maxSource));
  }
  const near = new Map<number, number>();
  if (input.neighbours && w.neighbour > 0)
    for (const [doc, c] of content) {
      if (c <= 0) continue;
      for (const n of input.neighbours(doc)) if (c > (near.get(n) ?? 0)) near.set(n, c);
    }
  return { content, near };
}

/**
 * A unit's fused score: its content score, then each bonus in a fixed order (the order is part of
 * the arithmetic: the same unit always sums to the same bits). With `e`, each bonus is written there too.
 */
function scaledScore(
  doc: number,
  parts: ScaledParts,
  input: FusionInput,
  w: FusionWeights,
  e?: Explanation,
): number {
  let score = parts.content.get(doc) ?? 0;
  let share: number;
  if (w.subject > 0 && input.subject?.(doc)) {
    score += w.subject;
    if (e) e.subject = w.subject;
  }
  if (w.time > 0 && input.time?.(doc)) {
    score += w.time;
    if (e) e.time = w.time;
  }
  if (w.dated > 0 && input.dated?.(doc)) {
    score += w.dated;
    if (e) e.dated = w.dated;
  }
  if (w.recency > 0 && input.recency) {
    score += share = w.recency * input.recency(doc);
    if (e) e.recency = share;
  }
  const near = parts.near.get(doc);
  if (near) {
    score += share = w.neighbour * near;
    if (e) e.neighbour = share;
  }
  if (w.question && input.asks?.(doc)) {
    score += -w.question;
    if (e) e.question = -w.question;
  }
  if (w.length && input.length) {
    score += share = w.length * Math.log1p(input.length(doc));
    if (e) e.length = share;
  }
  return score;
}

/** Every unit the scaled fusion scores, with its explanation: each signal's value and the fused `score`. */
export function fuseScaled(input: FusionInput, w: FusionWeights = FUSION_WEIGHTS): Map<number, Explanation> {
  const parts = scaledParts(input, w);
  const out = new Map<number, Explanation>();
  for (const d of input.dense) out.set(d.doc, { dense: d.score });
  for (const l of input.lexical) {
    const e = out.get(l.doc) ?? {};
    e.bm25 = l.score;
    out.set(l.doc, e);
  }
  if (input.source && w.source > 0)
    for (const x of input.source) {
      const e = out.get(x.doc) ?? {};
      e.source = x.score;
      out.set(x.doc, e);
    }
  for (const n of parts.near.keys()) if (!out.has(n)) out.set(n, {});
  for (const [doc, e] of out) e.score = scaledScore(doc, parts, input, w, e);
  return out;
}

/**
 * The `k` best units of `fuseScaled` (of those `keep` accepts), best first, with the same scores
 * and explanations, but only these k explained: the turn search fuses thousands of units per
 * question, and an explanation object for each was much of its time. Of equal scores the lower
 * unit number comes first (TopK).
 */
export function topScaled(
  input: FusionInput,
  w: FusionWeights,
  k: number,
  keep?: (doc: number) => boolean,
): { doc: number; explanation: Explanation }[] {
  const parts = scaledParts(input, w);
  const top = new TopK(k);
  for (const doc of parts.content.keys())
    if (!keep || keep(doc)) top.push(doc, scaledScore(doc, parts, input, w));
  for (const doc of parts.near.keys())
    if (!parts.content.has(doc) && (!keep || keep(doc))) top.push(doc, scaledScore(doc, parts, input, w));
  return top.sorted().map(({ doc }) => {
    // The same keys in the same order as fuseScaled's explanation.
    const e: Explanation = {};
    const dense = input.dense.find((d) => d.doc === doc);
    if (dense) e.dense = dense.score;
    const lexical = input.lexical.find((l) => l.doc === doc);
    if (lexical) e.bm25 = lexical.score;
    const source = input.source && w.source > 0 ? input.source.find((x) => x.doc === doc) : undefined;
    if (source) e.source = source.score;
    e.score = scaledScore(doc, parts, input, w, e);
    return { doc, explanation: e };
  });
}

export function fuseRrf(input: Pick<FusionInput, "dense" | "lexical">): Map<number, Explanation> {
  const out = new Map<number, Explanation>();
  const credit = (list: Scored[], signal: string) => {
    const sorted = [...list].sort((a, b) => b.score - a.score);
    // Equal scores share a rank: an arbitrary order among ties must not earn fusion credit.
    let rank = 0;
    sorted.forEach((hit, i) => {
      if (i > 0 && hit.score < sorted[i - 1]!.score) rank = i;
      const e = out.get(hit.doc) ?? { score: 0 };
      e[signal] = hit.score;
      e.score! += 1 / (RRF_K + rank + 1);
      out.set(hit.doc, e);
    });
  };
  credit(input.dense, "dense");
  credit(input.lexical, "bm25");
  return out;
}
