/**
 * Step `theanine.refine-timeline`: Theanine's context-aware refinement (Phase II-2) — a raw
 * timeline rewritten as a few dated lines that help the current conversation, latest state clear.
 * The step sees the recent dialogue (both speakers, latest line last), as the paper's refinement
 * is conditioned on the dialogue context, not on one utterance. A refinement given as a plain
 * list of lines is read as one (`readLines`); one that never fits leaves the timeline as it was,
 * dated entries in order (the step's fallback), so the reply still sees it.
 */
import { z } from "zod";
import type { RefineInput } from "../../../cognition/inputs.js";
import { refineOffline } from "../../../cognition/offline/refine.js";
import { defineStep } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { timelineEntryLine } from "../../../core/past-marks.js";
import { formatDay } from "../../../core/time.js";
import type { Turn } from "../../../core/types.js";

const answer = z.object({ lines: z.array(z.string().min(1).max(500)).max(30) });

/** Turns of the current session the refinement (and the context query) looks back over. */
export const RECENT_TURNS = 6;

/** The last few turns as "Name: text" lines, oldest first: the refinement's view of the talk. */
export function recentDialogue(turns: readonly Pick<Turn, "speaker" | "text">[], n = RECENT_TURNS): string {
  return turns
    .slice(-n)
    .map((t) => `${displayName(t.speaker)}: ${t.text}`)
    .join("\n");
}

/**
 * A refinement written as a list ("- 3 May: …", "1. …") rather than JSON: its items, or undefined
 * when the answer is not such a list (a refusal, a sentence).
 */
export function readLines(text: string): { lines: string[] } | undefined {
  if (/^\s*[{[`]/.test(text)) return undefined;
  const items = text
    .split("\n")
    .map((l) => /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/.exec(l)?.[1]?.trim())
    .filter((l): l is string => Boolean(l));
  return items.length > 0 ? { lines: items.slice(0, 30).map((l) => l.slice(0, 500)) } : undefined;
}

/** The timeline as it is, one dated and marked line per entry: what the reply sees when refinement fails. */
export function unrefinedLines(input: RefineInput): string[] {
  return input.timeline.map((e, n) => timelineEntryLine(e, n === 0));
}

export const refineTimelineStep = defineStep<RefineInput, string[], z.infer<typeof answer>>({
  name: "theanine.refine-timeline",
  // v2: `dialogue` is the recent exchange (several turns, both speakers), not one utterance.
  // v3: the current conversation's date is shown.
  // v4: a plain list is read as the lines; an answer that never fits leaves the timeline unrefined.
  // v5: entries are marked current or past, and the lines keep those marks.
  version: 5,
  description: "a timeline rewritten as dated lines useful for the current conversation",
  input: z.object({
    dialogue: z.string(),
    timeline: z.array(z.looseObject({ id: z.string(), text: z.string(), at: z.string() })),
    through: z.string().optional(),
    at: z.string().optional(),
  }) as unknown as z.ZodType<RefineInput>,
  output: answer,
  prompt(input) {
    const timeline = input.timeline.map((e, i) => `${i + 1}. ${timelineEntryLine(e, i === 0)}`).join("\n");
    return [
      {
        role: "system",
        content: [
          "You prepare memory for a reply. Below is a timeline of past events and the last few lines of the",
          "conversation going on now (both speakers, the newest line last; the reply answers that line).",
          "Rewrite the timeline as a few short dated lines that help continue this conversation: drop what does",
          "not bear on it, keep the order, and make clear which state is the latest. An entry marked [past] no",
          "longer holds: keep its mark on the line that tells it. Do not invent anything.",
          'Answer with JSON only: {"lines": ["..."]}',
        ].join("\n"),
      },
      {
        role: "user",
        content: `${input.at ? `Today is ${formatDay(input.at)}.\n\n` : ""}Timeline:\n${timeline}\n\nCurrent conversation:\n${input.dialogue}`,
      },
    ];
  },
  decode: (a) => a.lines,
  prose: (text) => readLines(text),
  fallback: { what: "the timeline left unrefined", value: unrefinedLines },
  // Offline, relevance is the encoder's similarity of each entry to the whole recent exchange.
  offline: (input, kit) => refineOffline(input, kit.embedder),
});
