/**
 * Recall as a set that covers the evidence. A summarizer often files several statements from one
 * turn ("Sam adopted a beagle", "Sam named the beagle Rufus"), and they rank side by side: in a
 * top k they spend places on one turn while a second turn a question also needs waits below the
 * cut. Here, among a slightly deeper list, the hits that bring a turn not yet covered go first;
 * the ones whose every source turn is already covered follow, in their order. The best hit
 * always stays first. Measured in `npm run lab -- eval recall … --units memories` (rows `hybrid`
 * and `hybrid-no-cover`): docs/recall.md#evidence-cover.
 *
 * Memories can only cover what a summary kept: a short answer ("A red kelpie. Ten weeks old.") is
 * often in no memory at all. `missedTurns` lets a recall bring such turns back, raw, after the
 * memories (`recall({ turns: n })`; docs/recall.md#turns-the-memories-missed).
 */
import type { RecallHit } from "../core/recall.js";

/**
 * How deep the covering pick reads: k × 1.5. Chosen on LoCoMo dev (carecall memories; 1.2, 1.5,
 * 2 and 3 × k compared, 1.5 and deeper gave the same R@10) and checked on the second hand's
 * recall-dev conversations, where nothing was chosen.
 */
export const COVER_DEPTH = 1.5;

/** Hits to ask for when `k` are to be picked by `coverFirst`. */
export function coverDepth(k: number): number {
  return Math.ceil(k * COVER_DEPTH);
}

/**
 * The first `k` of `hits` (best first): those that add a source turn not yet covered by the hits
 * picked before them go first, then the rest in their order. A hit without source turns is its own
 * evidence: it always adds something.
 */
export function coverFirst(hits: RecallHit[], k: number): RecallHit[] {
  const picked: RecallHit[] = [];
  const waiting: RecallHit[] = [];
  const covered = new Set<string>();
  for (const hit of hits) {
    if (picked.length === k) break;
    if (hit.sourceTurns.length > 0 && hit.sourceTurns.every((t) => covered.has(t))) {
      waiting.push(hit);
      continue;
    }
    picked.push(hit);
    for (const t of hit.sourceTurns) covered.add(t);
  }
  return [...picked, ...waiting].slice(0, k);
}

/**
 * Up to `n` of `turns` (the turn ranker's hits for the same query, best first) that none of
 * `memories` was made from: what was said that the memories leave out, in the turn ranker's order.
 */
export function missedTurns(memories: RecallHit[], turns: RecallHit[], n: number): RecallHit[] {
  if (n <= 0) return [];
  const covered = new Set(memories.flatMap((m) => m.sourceTurns));
  return turns.filter((t) => !covered.has(t.id)).slice(0, n);
}
