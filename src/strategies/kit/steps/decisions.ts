/**
 * The one answer shape of every batched judgement (pair operations, relation links):
 * {"decisions": [{"pair": 0, "label": "...", "why": "..."}]}. A batch that misses or repeats a
 * pair, or uses an unknown label, fails the schema and is retried by generateObject; one that
 * still fails is asked again in halves by the LLM cognition, so the pairs a weak model can decide
 * are kept; a single pair that never fits takes the step's fallback and is recorded as a failed
 * operation. A reason over WHY_CHARS is cut, not refused. Pairs numbered from 1 instead of 0
 * are read when that is unambiguous: every number from 1 to the count, once each.
 */
import { z } from "zod";

/** Decisions numbered 1 to `count` (each once, no 0) renumbered from 0; anything else as it is. */
export function fromZero(value: unknown, count: number): unknown {
  const decisions = (value as { decisions?: unknown } | null)?.decisions;
  if (!Array.isArray(decisions) || decisions.length !== count) return value;
  const pairs = decisions.map((d) => (d as { pair?: unknown } | null)?.pair);
  const oneBased = pairs.every((p) => Number.isInteger(p) && (p as number) >= 1 && (p as number) <= count);
  if (!oneBased || new Set(pairs).size !== count) return value;
  return {
    ...(value as object),
    decisions: decisions.map((d) => ({ ...(d as object), pair: (d as { pair: number }).pair - 1 })),
  };
}

export function decisionsSchema(labels: readonly string[], count: number) {
  return z.preprocess((value) => fromZero(value, count), decisionsObject(labels, count));
}

function decisionsObject(labels: readonly string[], count: number) {
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
