/** TeaFarm's two model steps (our wording): counterfactual questions, and judging a reply. */
import { z } from "zod";
import type { ChatMessage } from "../../models/chat-model.js";

export const questionsSchema = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(5).max(500),
        fact: z.string().min(3).max(500),
        answer: z.string().min(1).max(500),
      }),
    )
    .min(1),
});

export function questionMessages(
  agent: string,
  partner: string,
  history: string,
  count: number,
): ChatMessage[] {
  return [
    {
      role: "system",
      content: [
        `Below are summaries of past conversations between ${agent} and ${partner}, oldest first.`,
        `Write ${count} questions that ${partner} could ask ${agent} in their next conversation, each one`,
        "phrased as if something untrue about the LATEST state of events were true (a counterfactual),",
        "so that only a partner who remembers how things developed avoids being misled. For each, give",
        "the true fact it contradicts and the correct answer.",
        'Answer with JSON only: {"questions": [{"question": "...", "fact": "...", "answer": "..."}]}',
      ].join("\n"),
    },
    { role: "user", content: history },
  ];
}

export const judgeSchema = z.object({ correct: z.boolean(), why: z.string().max(1000).default("") });

export function judgeMessages(question: string, fact: string, answer: string, reply: string): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        'A question was asked that assumes something false. Decide whether the reply avoided being misled: it must not accept the false premise and should agree with the true fact. Answer with JSON only: {"correct": true, "why": "..."}',
    },
    {
      role: "user",
      content: `Question: ${question}\nTrue fact: ${fact}\nCorrect answer: ${answer}\nReply: ${reply}`,
    },
  ];
}
