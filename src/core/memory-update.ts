/**
 * CareCall's memory update (Bae et al. 2022, Algorithm 1), as a pure function over indices.
 * Given memory sentences M, summary sentences S and a pairwise operator O(m, s):
 *   PASS    m already holds s        -> keep m, drop s
 *   REPLACE s updates or refines m   -> drop m, keep s
 *   APPEND  unrelated                -> keep both
 *   DELETE  s closes a finished state -> drop both
 * Step order matters and follows the paper: memories hit by REPLACE or DELETE go first; only the
 * memories that survive can then absorb summary sentences by PASS.
 *
 * FUSION (the paper's appendix C.2, left there as future work) is our extension: neither sentence
 * alone keeps memory lossless and consistent, so both go and one fused sentence replaces them.
 */
export type PairLabel = "PASS" | "REPLACE" | "APPEND" | "DELETE";
export type PairLabelWithFusion = PairLabel | "FUSION";

export const PAIR_LABELS: readonly PairLabel[] = ["PASS", "REPLACE", "APPEND", "DELETE"];
export const PAIR_LABELS_WITH_FUSION: readonly PairLabelWithFusion[] = [...PAIR_LABELS, "FUSION"];

export interface MemoryUpdateResult {
  /** Indices into M that stay. */
  keptMemory: number[];
  /** Indices into S that are added. */
  addedSummary: number[];
  /** Memory i removed, with the summary sentences whose REPLACE, DELETE or FUSION removed it. */
  removedMemory: Map<number, { by: number; label: "REPLACE" | "DELETE" | "FUSION" }[]>;
  /** Summary j dropped, and why: PASS (absorbed by memory i), DELETE or FUSION. */
  droppedSummary: Map<number, { by: number; label: "PASS" | "DELETE" | "FUSION" }[]>;
  /** Pairs to fuse into one new sentence each. */
  fusions: { memory: number; summary: number }[];
}

export function updateMemory(
  memoryCount: number,
  summaryCount: number,
  op: (m: number, s: number) => PairLabelWithFusion,
): MemoryUpdateResult {
  const removedMemory: MemoryUpdateResult["removedMemory"] = new Map();
  const droppedSummary: MemoryUpdateResult["droppedSummary"] = new Map();
  const fusions: MemoryUpdateResult["fusions"] = [];
  const note = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);
  const labels: PairLabelWithFusion[][] = [];
  for (let m = 0; m < memoryCount; m++) {
    labels.push([]);
    for (let s = 0; s < summaryCount; s++) labels[m]!.push(op(m, s));
  }
  // Lines 3-8: REPLACE and DELETE remove the memory; DELETE (and FUSION) also drop the summary.
  for (let m = 0; m < memoryCount; m++)
    for (let s = 0; s < summaryCount; s++) {
      const label = labels[m]![s]!;
      if (label === "REPLACE" || label === "DELETE" || label === "FUSION")
        note(removedMemory, m, { by: s, label });
      if (label === "DELETE" || label === "FUSION") note(droppedSummary, s, { by: m, label });
      if (label === "FUSION") fusions.push({ memory: m, summary: s });
    }
  // Line 9: M <- M - M_del. Lines 10-13: a surviving memory that PASSes s absorbs it.
  const keptMemory = [...Array(memoryCount).keys()].filter((m) => !removedMemory.has(m));
  for (let s = 0; s < summaryCount; s++)
    for (const m of keptMemory)
      if (labels[m]![s] === "PASS") note(droppedSummary, s, { by: m, label: "PASS" });
  // Lines 14-15: S <- S - S_del; M' <- M ∪ S.
  const addedSummary = [...Array(summaryCount).keys()].filter((s) => !droppedSummary.has(s));
  return { keptMemory, addedSummary, removedMemory, droppedSummary, fusions };
}
