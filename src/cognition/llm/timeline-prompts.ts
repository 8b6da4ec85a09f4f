/** Prompts and schemas for Theanine's steps on the LLM engine (our wording). */
import { z } from "zod";
import { RELATION_MEANINGS, RELATIONS } from "../../core/relations.js";
import { formatDay } from "../../core/time.js";
import type { ChatMessage } from "../../models/chat-model.js";
import type { MemoryPair, RefineInput } from "../cognition.js";
import { DECISIONS_FORMAT } from "./batch-decisions.js";

export function relationMessages(about: string, pairs: MemoryPair[]): ChatMessage[] {
  const meanings = RELATIONS.map((r) => `- ${r}: ${RELATION_MEANINGS[r]}`).join("\n");
  return [
    {
      role: "system",
      content: [
        `You organise the memories about ${about} into a graph of how events developed.`,
        "Each pair has an older memory A and a newer memory B with their dates. Name the relation from A to B:",
        meanings,
        "- None: they only share words; there is no real connection.",
        `Label each pair with the relation. Answer with JSON only: ${DECISIONS_FORMAT}.`,
      ].join("\n"),
    },
    {
      role: "user",
      content: pairs
        .map(
          (p, i) =>
            `${i}. A (${formatDay(p.older.at)}): ${p.older.text}\n   B (${formatDay(p.newer.at)}): ${p.newer.text}`,
        )
        .join("\n"),
    },
  ];
}

export const refineSchema = z.object({ lines: z.array(z.string().min(1).max(500)).max(30) });

export function refineMessages(input: RefineInput): ChatMessage[] {
  const timeline = input.timeline
    .map((e, i) => `${i + 1}. ${formatDay(e.at)}${e.relation ? ` [${e.relation}]` : ""}: ${e.text}`)
    .join("\n");
  return [
    {
      role: "system",
      content: [
        "You prepare memory for a reply. Below is a timeline of past events and the current conversation.",
        "Rewrite the timeline as a few short dated lines that help answer the conversation: drop what does",
        "not help, keep the order, and make clear which state is the latest. Do not invent anything.",
        'Answer with JSON only: {"lines": ["..."]}',
      ].join("\n"),
    },
    { role: "user", content: `Timeline:\n${timeline}\n\nCurrent conversation:\n${input.dialogue}` },
  ];
}

export const reasonedReplySchema = z.object({
  rationale: z.string().max(2000),
  reply: z.string().min(1).max(2000),
});

export const REASONING_INSTRUCTION =
  'First think about what the partner needs and which remembered events matter (most recent state first), then reply. Answer with JSON only: {"rationale": "...", "reply": "..."}';
