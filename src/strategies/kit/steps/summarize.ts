/**
 * Step `summarize`: one session into short standalone statements about each participant, from the
 * agent's point of view, each with the turns it rests on. Shared by the summary-based strategies
 * (carecall, theanine, accumulate). Prompt in our words, after CareCall's annotation guidance.
 */
import { z } from "zod";
import type { SummarizeInput } from "../../../cognition/inputs.js";
import { summarizeOffline } from "../../../cognition/offline/summarize.js";
import { chunkItems, defineStep } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { isOwnReply } from "../../../core/own-reply.js";
import { formatDay } from "../../../core/time.js";
import type { Statement, Turn } from "../../../core/types.js";
import { turnShape } from "./shapes.js";

const summarizeInput = z.object({
  agent: z.string().min(1),
  partners: z.array(z.string().min(1)).min(1),
  sessionId: z.string().min(1),
  at: z.string().min(1),
  turns: z.array(turnShape),
});

function summarySchema(participants: string[], turnCount: number) {
  return z.object({
    statements: z.array(
      z.object({
        about: z
          .enum(participants as [string, ...string[]])
          .describe("id of the person the statement is about"),
        text: z.string().min(3).max(400).describe("one short third-person statement"),
        turns: z
          .array(
            z
              .number()
              .int()
              .min(0)
              .max(Math.max(0, turnCount - 1)),
          )
          .min(1)
          .describe("numbers of the turns it comes from"),
        private: z
          .boolean()
          .optional()
          .describe(
            "true when the person asked to keep it to themselves, or it is sensitive: credentials and codes, health, money, relationship or family trouble, legal trouble, a home address",
          ),
      }),
    ),
  });
}

type SummaryAnswer = z.infer<ReturnType<typeof summarySchema>>;

function summaryMessages(input: SummarizeInput) {
  const people = [input.agent, ...input.partners].map((p) => `${p} (${displayName(p)})`).join(", ");
  const system = [
    `You keep the long-term memory of ${displayName(input.agent)}, who talks with the same people over many sessions.`,
    "Read one session and write down what is worth knowing next time, as short standalone statements.",
    "Rules:",
    "- Write in the third person with names, never 'I' or 'you' (e.g. 'Sam adopted a beagle').",
    "- Keep lasting facts: identity, relationships, work, health, habits, likes, plans, and any change of status",
    "  (a new job, a move, getting ill or getting better). Leave out greetings, small talk and one-off trivia",
    "  such as what someone had for breakfast.",
    "- Turn relative times into dates using the session date (write 'on 7 May 2023', not 'yesterday').",
    "- One fact per statement; at most about eight statements per person.",
    "- A fact is about the person it concerns: when someone repeats what another person said, it is a fact",
    "  about that other person, never about the one repeating it.",
    ownReplyRule(input.agent),
    `- "about" is the id of the person the statement is about; "turns" lists the turn numbers it rests on.`,
    '- Set "private": true on a statement the person asked to keep between you (or said no one else knows), and on one',
    "  that is sensitive by kind: passwords, PINs and codes, account numbers, a home address, health, money, relationship",
    "  or family trouble, legal trouble. Leave the request itself out of the text. Others will never hear a private statement.",
    'Answer with JSON only: {"statements": [{"about": "...", "text": "...", "turns": [0], "private": false}]}',
  ].join("\n");
  const transcript = numberedTranscript(input.turns, input.agent);
  return [
    { role: "system" as const, content: system },
    {
      role: "user" as const,
      content: `People: ${people}\nSession date: ${formatDay(input.at)}\n\n${transcript}`,
    },
  ];
}

/**
 * A session's turns as the summarizing prompts number them, "[i] Name: text". The agent's own
 * generated replies are marked "(own reply)": from those, the prompts keep only what the agent
 * says about itself or promises (a reply recalls memory; a recalled fact is not a new one).
 */
export function numberedTranscript(turns: Turn[], agent: string): string {
  return turns
    .map((t, i) => `[${i}] ${displayName(t.speaker)}${isOwnReply(t, agent) ? OWN_REPLY : ""}: ${t.text}`)
    .join("\n");
}

/** The mark of the agent's own generated replies in a numbered transcript. */
export const OWN_REPLY = " (own reply)";

/** The rule the summarizing prompts give for lines marked OWN_REPLY. */
export function ownReplyRule(agent: string): string {
  return `- Lines marked "${OWN_REPLY.trim()}" are ${displayName(agent)}'s own earlier replies: take from them only what ${displayName(agent)} says about themself or promises to do, never what they recall or repeat about anyone else.`;
}

export const summarizeStep = defineStep<SummarizeInput, Statement[], SummaryAnswer>({
  name: "summarize",
  // v3: offline, compound sentences are split into atomic statements.
  // v4: the agent's own replies are shown, marked, and only its statements about itself are kept.
  // v5: each statement says whether it is private.
  // v6: a session longer than the model's window is summarized in consecutive parts.
  version: 6,
  description: "a session into short statements about each participant, with their source turns",
  input: summarizeInput as unknown as z.ZodType<SummarizeInput>,
  output: (input) => summarySchema([input.agent, ...input.partners], input.turns.length),
  prompt: summaryMessages,
  decode(answer, input) {
    return answer.statements.map((s) => {
      // The schema bounds the turn numbers, so every one names a real turn.
      const turns = s.turns.map((i) => input.turns[i] as Turn);
      return {
        about: s.about,
        text: s.text.trim(),
        sourceTurns: turns.map((t) => t.id),
        observedAt: turns[0]?.at || input.at,
        // Read by the write path (engine/privacy/audience-stamp.ts), which keeps the memory with its speaker.
        ...(s.private ? { attributes: { private: true } } : {}),
      };
    });
  },
  // A session longer than the model's window is summarized in consecutive parts, their statements joined.
  batch: chunkItems<SummarizeInput, "turns", Statement>("turns"),
  offline: (input, kit) => summarizeOffline(input, kit.embedder),
});
