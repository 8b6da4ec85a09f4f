/**
 * Step `creem.question`: CREEM's query generation (§3, App. A.1) — from the dialogue so far, the
 * one most salient question about the partner that memory could answer; contextual search uses it
 * beside the last two utterances. Offline: a template over the last partner utterance's subject
 * and its noun phrases (an approximation: it names what was talked about, it does not reason).
 */

import { z } from "zod";
import { nlp } from "../../../cognition/offline/nlp.js";
import { defineStep } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { formatDay } from "../../../core/time.js";

export interface QuestionInput {
  agent: string;
  partner: string;
  /** The dialogue so far, oldest first (the last lines matter most). */
  lines: { speaker: string; text: string }[];
  /** When the conversation takes place (conversation time), shown with it. */
  at?: string;
}

const answer = z.object({ question: z.string().min(3).max(300) });

/** Noun phrases worth asking about: no pronouns, no bare time words. */
function topics(text: string): string[] {
  const nouns = (nlp(text).nouns().out("array") as string[])
    .map((n) => n.replace(/^(?:my|your|our|his|her|their|the|a|an)\s+/i, "").replace(/[.,!?;:]+$/, ""))
    .filter(
      (n) =>
        n.length > 2 &&
        !/^(?:i|me|you|it|that|this|they|we|he|she|today|yesterday|week|month|year|time)$/i.test(n),
    );
  return [...new Set(nouns)].slice(0, 3);
}

export const questionStep = defineStep<QuestionInput, string, z.infer<typeof answer>>({
  name: "creem.question",
  // v2: the conversation's date is shown.
  version: 2,
  description: "one salient question about the partner, from the dialogue so far",
  input: z.object({
    agent: z.string().min(1),
    partner: z.string().min(1),
    lines: z.array(z.object({ speaker: z.string(), text: z.string() })).min(1),
    at: z.string().optional(),
  }),
  output: answer,
  temperature: 0.7,
  prompt: (input) => [
    {
      role: "system",
      content: [
        `You help ${displayName(input.agent)} remember ${displayName(input.partner)}.`,
        `Read the conversation, paying most attention to the last line, and write the single most useful high-level`,
        `question about ${displayName(input.partner)} that memories from earlier conversations could answer.`,
        'Answer with JSON only: {"question": "..."}',
      ].join("\n"),
    },
    {
      role: "user",
      content: `${input.at ? `Conversation of ${formatDay(input.at)}:\n` : ""}${input.lines.map((l) => `${displayName(l.speaker)}: ${l.text}`).join("\n")}`,
    },
  ],
  decode: (a) => a.question.trim(),
  offline(input) {
    const name = displayName(input.partner);
    const last = [...input.lines].reverse().find((l) => l.speaker === input.partner) ?? input.lines.at(-1)!;
    const about = topics(last.text);
    return about.length
      ? `What do I know about ${name} and ${about.join(", ")}?`
      : `What do I know about ${name}?`;
  },
});
