/**
 * Step `theanine.refine-timeline`: Theanine's context-aware refinement (Phase II-2) — a raw
 * timeline rewritten as a few dated lines that help the current conversation, latest state clear.
 */
import { z } from "zod";
import type { RefineInput } from "../../../cognition/inputs.js";
import { refineOffline } from "../../../cognition/offline/refine.js";
import { defineStep } from "../../../cognition/step.js";
import { formatDay } from "../../../core/time.js";

const answer = z.object({ lines: z.array(z.string().min(1).max(500)).max(30) });

export const refineTimelineStep = defineStep<RefineInput, string[], z.infer<typeof answer>>({
  name: "theanine.refine-timeline",
  version: 1,
  description: "a timeline rewritten as dated lines useful for the current conversation",
  input: z.object({
    dialogue: z.string(),
    timeline: z.array(z.looseObject({ id: z.string(), text: z.string(), at: z.string() })),
    through: z.string().optional(),
  }) as unknown as z.ZodType<RefineInput>,
  output: answer,
  prompt(input) {
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
  },
  decode: (a) => a.lines,
  offline: (input, kit) => refineOffline(input, kit.embedder),
});
