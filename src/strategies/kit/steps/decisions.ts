/**
 * The one answer shape of every batched judgement (pair operations, relation links):
 * {"decisions": [{"pair": 0, "label": "...", "why": "..."}]}. A batch that misses or repeats a
 * pair, or uses an unknown label, fails the schema and is retried by generateObject; one that
 * still fails is asked again in halves by the LLM cognition, so the pairs a weak model can decide
 * are kept. A reason over WHY_CHARS is cut, not refused.
 */
import { z } from "zod";

export function decisionsSchema(labels: readonly string[], count: number) {
  return z
    .object({
      decisions: z.array(
        z.object({
          pair: z
            .number()
            .int()
            .min(0)
            .max(Math.max(0, count - 1)),
          label: z.enum(labels as [string, ...string[]]),
          // A longer reason is cut, not refused: the decision is what counts.
          why: z
            .preprocess((v) => (typeof v === "string" ? v.slice(0, WHY_CHARS) : v), z.string().max(WHY_CHARS))
            .default(""),
        }),
      ),
    })
    .superRefine((value, ctx) => {
      if (value.decisions.length !== count || new Set(value.decisions.map((d) => d.pair)).size !== count)
        ctx.addIssue({
          code: "custom",
          message: `give exactly one decision for each of the ${count} pairs (numbers 0 to ${count - 1})`,
        });
    });
}

/** Characters of a decision's reason that are kept (the prompt states it). */
export const WHY_CHARS = 300;

export const DECISIONS_FORMAT = `{"decisions": [{"pair": 0, "label": "...", "why": "a reason of at most ${WHY_CHARS} characters"}]}, exactly one decision for every pair, by its number`;

export type Decisions = { decisions: { pair: number; label: string; why: string }[] };

/** Decisions back in item order (the schema guarantees one per item). */
export function inPairOrder(answer: Decisions): { label: string; why: string }[] {
  return [...answer.decisions].sort((a, b) => a.pair - b.pair).map((d) => ({ label: d.label, why: d.why }));
}
