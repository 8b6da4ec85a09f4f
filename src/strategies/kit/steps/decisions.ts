/**
 * The one answer shape of every batched judgement (pair operations, relation links):
 * {"decisions": [{"pair": 0, "label": "...", "why": "..."}]}. A batch that misses or repeats a
 * pair, or uses an unknown label, fails the schema and is retried by generateObject.
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
          why: z.string().max(300).default(""),
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

export const DECISIONS_FORMAT =
  '{"decisions": [{"pair": 0, "label": "...", "why": "short reason"}]}, one per pair';

export type Decisions = { decisions: { pair: number; label: string; why: string }[] };

/** Decisions back in item order (the schema guarantees one per item). */
export function inPairOrder(answer: Decisions): { label: string; why: string }[] {
  return [...answer.decisions].sort((a, b) => a.pair - b.pair).map((d) => ({ label: d.label, why: d.why }));
}
