/** Prompt and schema of the LLM summarizer (our wording, after CareCall's annotation guidance). */
import { z } from "zod";
import { displayName } from "../../core/ids.js";
import { formatDay } from "../../core/time.js";
import type { ChatMessage } from "../../models/chat-model.js";
import type { SummarizeInput } from "../cognition.js";

export function summarySchema(participants: string[], turnCount: number) {
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
      }),
    ),
  });
}

export function summaryMessages(input: SummarizeInput): ChatMessage[] {
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
    `- "about" is the id of the person the statement is about; "turns" lists the turn numbers it rests on.`,
    'Answer with JSON only: {"statements": [{"about": "...", "text": "...", "turns": [0]}]}',
  ].join("\n");
  const transcript = input.turns.map((t, i) => `[${i}] ${displayName(t.speaker)}: ${t.text}`).join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: `People: ${people}\nSession date: ${formatDay(input.at)}\n\n${transcript}` },
  ];
}
