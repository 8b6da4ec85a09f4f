/**
 * Step `carecall.classify-pairs`: CareCall's pairwise operator O(m, s) for many pairs at once —
 * PASS, REPLACE, APPEND, DELETE (§4.3) and our FUSION — one decision per pair, in order, batched
 * 40 pairs a call (the paper's one call per pair is its own stated cost limit).
 */
import { z } from "zod";
import type { PairDecision, SentencePair } from "../../../cognition/inputs.js";
import { decidePairsOffline } from "../../../cognition/offline/learned/decide-pairs.js";
import { batchItems, defineStep } from "../../../cognition/step.js";
import {
  PAIR_LABELS,
  PAIR_LABELS_WITH_FUSION,
  type PairLabelWithFusion,
} from "../../../core/memory-update.js";
import { formatDay } from "../../../core/time.js";
import { DECISIONS_FORMAT, type Decisions, decisionsSchema, inPairOrder } from "../../kit/steps/decisions.js";

export interface ClassifyPairsInput {
  /** The subject both sentences are about (a display name helps the model). */
  about: string;
  pairs: SentencePair[];
  /** Allow FUSION answers; when false the operator picks among the paper's four labels. */
  fusion?: boolean;
}

const input = z.object({
  about: z.string().min(1),
  pairs: z.array(
    z.object({
      memory: z.string(),
      summary: z.string(),
      memoryAt: z.string().optional(),
      summaryAt: z.string().optional(),
    }),
  ),
  fusion: z.boolean().optional(),
});

const labels = (fusion: boolean | undefined) => ((fusion ?? true) ? PAIR_LABELS_WITH_FUSION : PAIR_LABELS);

function messages(input: ClassifyPairsInput) {
  const system = [
    `You maintain the long-term memory about ${input.about}. For each pair, an older memory sentence (M)`,
    "meets a newer summary sentence (S) from the latest conversation. Decide what the memory keeps:",
    "- PASS: M already contains everything S says; keep M only.",
    "- REPLACE: S contradicts M or updates it, or S says strictly more; keep S only.",
    "- APPEND: they are about different things; keep both.",
    "- DELETE: S reports that a temporary state in M is over (e.g. an illness healed) and neither is",
    "  worth remembering any longer; keep neither.",
    ...((input.fusion ?? true)
      ? [
          "- FUSION: keeping only one would lose information but keeping both would be inconsistent; the two",
          "  will be merged into one sentence.",
        ]
      : []),
    "Dates in brackets say when each was said. A summary sentence older than its memory cannot replace,",
    "delete or fuse it: it is the memory's past.",
    `Answer with JSON only: ${DECISIONS_FORMAT}.`,
  ].join("\n");
  const when = (at?: string) => (at ? ` (${formatDay(at)})` : "");
  const pairs = input.pairs
    .map((p, i) => `${i}. M${when(p.memoryAt)}: ${p.memory}\n   S${when(p.summaryAt)}: ${p.summary}`)
    .join("\n");
  return [
    { role: "system" as const, content: system },
    { role: "user" as const, content: pairs },
  ];
}

/** The reason given for a pair the model's window could not take. */
const LEFT_OUT = "left out: too large for the model's window; both kept";

export const classifyPairsStep = defineStep<ClassifyPairsInput, PairDecision[], Decisions>({
  name: "carecall.classify-pairs",
  // v6: the answer format states the reason's limit and asks for every pair by its number.
  // v7: pairs numbered from 1 are read; a pair that never fits is kept apart (APPEND) and recorded.
  version: 7,
  description:
    "PASS / REPLACE / APPEND / DELETE (/ FUSION) for each (memory, summary) pair, told which is older",
  input,
  output: (i) => decisionsSchema(labels(i.fusion), i.pairs.length) as z.ZodType<Decisions>,
  prompt: messages,
  decode: (answer) =>
    inPairOrder(answer).map((d) => ({ label: d.label as PairLabelWithFusion, rationale: d.why })),
  // A pair too large for the model's window alone keeps both sides: nothing is lost unjudged.
  batch: batchItems<ClassifyPairsInput, "pairs", PairDecision>("pairs", 40, undefined, () => ({
    label: "APPEND",
    rationale: LEFT_OUT,
  })),
  // APPEND keeps both sentences: nothing is lost while the pair waits for `retry`.
  fallback: {
    what: "both kept (APPEND)",
    value: (i) =>
      i.pairs.map(() => ({
        label: "APPEND" as const,
        rationale: "not decided: the model's answer never fit",
      })),
  },
  async offline(i, kit) {
    return decidePairsOffline(i.pairs, i.about, kit, i.fusion ?? true);
  },
});
