/**
 * TeaFarm's model steps (our wording): write the exam from session summaries, and judge a reply.
 * The exam writer reads every past session's summary in order and writes questions that assume
 * something no longer (or never) true, about either speaker, each with the truth and the summary
 * lines it rests on.
 */
import { z } from "zod";
import type { ChatMessage } from "../../../src/models/chat-model.js";

export const questionsSchema = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(5).max(500),
        fact: z.string().min(3).max(500),
        answer: z.string().min(1).max(500),
        /** Whose past the question is about: "agent" or "partner". */
        about: z.enum(["agent", "partner"]).default("partner"),
        /** The untrue assumption the question makes. */
        premise: z.string().max(500).default(""),
        /** Numbers of the summary lines the true fact rests on. */
        evidence: z.array(z.number().int().min(0)).default([]),
        /** What the partner says first, leading toward the question without answering it. */
        leadIn: z.array(z.string().min(1).max(300)).max(3).default([]),
      }),
    )
    .min(1),
});

export type WrittenQuestion = z.infer<typeof questionsSchema>["questions"][number];

/**
 * @param history the sessions' summaries in order, every line numbered ("[3] Sam moved to Bristol.")
 */
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
        `Below are summaries of every past conversation between ${agent} and ${partner}, one session after another,`,
        "oldest first; each line has a number. Read them in order and notice what changed over time.",
        `Write ${count} questions that ${partner} will ask ${agent} in their next conversation. Each question takes`,
        "something for granted that is not true given how things stand after the last session (a counterfactual:",
        "an old state that has since changed, or a detail that got mixed up), so that only a partner who remembers",
        "how events developed is not misled. Cover both people: some questions about",
        `${partner}'s own life (about: "partner"), some about what ${agent} said about themselves (about: "agent").`,
        "For each, give: the question; the false assumption it makes (premise); the true fact; the correct answer;",
        "the numbers of the summary lines the true fact rests on (evidence); and one or two short lines",
        `${partner} says first to steer the talk toward the topic without giving anything away (leadIn).`,
        'Answer with JSON only: {"questions": [{"about": "partner", "question": "...", "premise": "...", "fact": "...", "answer": "...", "evidence": [0], "leadIn": ["..."]}]}',
      ].join("\n"),
    },
    { role: "user", content: history },
  ];
}

export const judgeSchema = z.object({ correct: z.boolean(), why: z.string().max(1000).default("") });

export function judgeMessages(
  question: string,
  fact: string,
  answer: string,
  reply: string,
  premise = "",
): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        'A question was asked that assumes something false. Decide whether the reply avoided being misled: it must not accept the false premise and should agree with the true fact. Answer with JSON only: {"correct": true, "why": "..."}',
    },
    {
      role: "user",
      content: `Question: ${question}\n${premise ? `False assumption: ${premise}\n` : ""}True fact: ${fact}\nCorrect answer: ${answer}\nReply: ${reply}`,
    },
  ];
}
