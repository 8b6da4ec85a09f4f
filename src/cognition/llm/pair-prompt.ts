/** Prompt and schema of the LLM pairwise operator (CareCall §4.3 labels, our wording). */
import { z } from "zod";
import type { ChatMessage } from "../../models/chat-model.js";
import type { ClassifyPairsInput } from "../cognition.js";

export function pairSchema(count: number, fusion: boolean) {
  const labels = fusion
    ? (["PASS", "REPLACE", "APPEND", "DELETE", "FUSION"] as const)
    : (["PASS", "REPLACE", "APPEND", "DELETE"] as const);
  return z
    .object({
      decisions: z.array(
        z.object({
          pair: z
            .number()
            .int()
            .min(0)
            .max(Math.max(0, count - 1)),
          label: z.enum(labels),
          why: z.string().max(300).default(""),
        }),
      ),
    })
    .superRefine((value, ctx) => {
      const seen = new Set(value.decisions.map((d) => d.pair));
      if (value.decisions.length !== count || seen.size !== count)
        ctx.addIssue({
          code: "custom",
          message: `give exactly one decision for each of the ${count} pairs (numbers 0 to ${count - 1})`,
        });
    });
}

export function pairMessages(input: ClassifyPairsInput): ChatMessage[] {
  const fusion = input.fusion ?? true;
  const system = [
    `You maintain the long-term memory about ${input.about}. For each pair, an older memory sentence (M)`,
    "meets a newer summary sentence (S) from the latest conversation. Decide what the memory keeps:",
    "- PASS: M already contains everything S says; keep M only.",
    "- REPLACE: S contradicts M or updates it, or S says strictly more; keep S only.",
    "- APPEND: they are about different things; keep both.",
    "- DELETE: S reports that a temporary state in M is over (e.g. an illness healed) and neither is",
    "  worth remembering any longer; keep neither.",
    ...(fusion
      ? [
          "- FUSION: keeping only one would lose information but keeping both would be inconsistent; the two",
          "  will be merged into one sentence.",
        ]
      : []),
    'Answer with JSON only: {"decisions": [{"pair": 0, "label": "REPLACE", "why": "short reason"}]}, one per pair.',
  ].join("\n");
  const pairs = input.pairs.map((p, i) => `${i}. M: ${p.memory}\n   S: ${p.summary}`).join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: pairs },
  ];
}

export const fuseSchema = z.object({ sentence: z.string().min(3).max(400) });

export function fuseMessages(input: { about: string; memory: string; summary: string }): ChatMessage[] {
  return [
    {
      role: "system",
      content: `Merge two statements about ${input.about} into one short third-person sentence that keeps every fact still true, preferring the newer statement where they disagree. Answer with JSON only: {"sentence": "..."}`,
    },
    { role: "user", content: `Older: ${input.memory}\nNewer: ${input.summary}` },
  ];
}
