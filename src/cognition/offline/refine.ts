/**
 * Offline timeline refinement (Theanine Phase II-2) by relevance: the entries of a raw timeline
 * that bear on the current conversation are kept — the retrieved memory, the latest state, and
 * anything close to what is being talked about — and told in order with their relations.
 */
import { timelineEntryLine } from "../../core/past-marks.js";
import { cosine } from "../../core/vector.js";
import type { Embedder } from "../../models/embedder.js";
import type { RefineInput } from "../inputs.js";

/** Least similarity to the conversation for a middle entry to stay. */
export const REFINE_MIN_COSINE = 0.3;

export async function refineOffline(input: RefineInput, embedder: Embedder): Promise<string[]> {
  const entries = input.timeline;
  if (entries.length === 0) return [];
  const [query, ...vectors] = await embedder.embed([input.dialogue || " ", ...entries.map((e) => e.text)]);
  const last = entries.length - 1;
  const kept = entries.filter(
    (e, i) =>
      i === 0 || i === last || e.id === input.through || cosine(query!, vectors[i]!) >= REFINE_MIN_COSINE,
  );
  return kept.map((e, i) => timelineEntryLine(e, i === 0));
}
