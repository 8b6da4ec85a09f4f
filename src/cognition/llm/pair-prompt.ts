/** Prompt and schema of the LLM pairwise operator (CareCall §4.3 labels, our wording). */
import { z } from "zod";
import { PAIR_LABELS, PAIR_LABELS_WITH_FUSION } from "../../core/memory-update.js";
import type { ChatMessage } from "../../models/chat-model.js";
import type { ClassifyPairsInput } from "../cognition.js";
import { DECISIONS_FORMAT } from "./batch-decisions.js";

export function pairLabels(fusion: boolean): readonly string[] {
  return fusion ? PAIR_LABELS_WITH_FUSION : PAIR_LABELS;
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
    `Answer with JSON only: ${DECISIONS_FORMAT}.`,
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
