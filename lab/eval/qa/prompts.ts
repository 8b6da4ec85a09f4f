/**
 * The two prompts of the QA lab, in our own words, each with a version that the cache keys on
 * (change a prompt, bump its version, and the cached answers or grades it made are not reused):
 *   - the answer prompt: the question, the date it is asked, and the context the condition gives
 *     (a strategy's recall, the whole conversation, or nothing);
 *   - the judge prompt: the usual generous right/wrong grade against the gold answer; a stricter
 *     one for questions that cannot be answered (the answer must say so); and a rubric grade,
 *     point by point, where the format has a rubric (BEAM).
 */
import { z } from "zod";
import type { ChatMessage } from "../../../src/models/chat-model.js";
import type { QaQuestion } from "./qa-set.js";

/** The answer prompt's version (in the answer cache key). */
// v2: recalled memories come marked [current] or [past: …], and the prompt says what that means.
export const ANSWER_PROMPT_VERSION = "qa-answer-v2";
/** The judge prompt's version (in the grade cache key). */
export const JUDGE_PROMPT_VERSION = "qa-judge-v1";

/** Tokens an answer may take: short for a fact, room for a rubric's points. */
export function answerMaxTokens(q: Pick<QaQuestion, "rubric">): number {
  return q.rubric?.length ? 1024 : 256;
}

/** The answer prompt: `context` is what the condition hands the model ("" for none). */
export function answerMessages(
  q: Pick<QaQuestion, "question" | "askedAt" | "rubric">,
  context: string,
  heading: string,
): ChatMessage[] {
  const today = q.askedAt ? `The question is asked on ${q.askedAt.slice(0, 10)}.` : "";
  // A rubric question (a summary, an ordering, an instruction to follow) needs room to answer.
  const length = q.rubric?.length
    ? "Answer the request fully but without padding."
    : "Answer in a few words or one short sentence.";
  return [
    {
      role: "system",
      content: [
        "You answer a question about earlier conversations.",
        context
          ? `${heading} follows; it may be incomplete, and newer lines outweigh older ones when they disagree. A line marked [past] no longer held after the date it gives; what replaced it is named there.`
          : "You have no record of the conversations.",
        today,
        `${length} When the question asks when, give a date worked out from the dates shown.`,
        "If the record does not hold the answer, say that you don't know rather than guessing.",
      ]
        .filter(Boolean)
        .join(" "),
    },
    { role: "user", content: `${context ? `${heading}:\n${context}\n\n` : ""}Question: ${q.question}` },
  ];
}

/** A right/wrong grade. */
export const verdictSchema = z.object({
  reason: z.string(),
  correct: z.boolean(),
});

/** A grade point by point against a rubric: 1 covered, 0.5 partly, 0 not. */
export const rubricSchema = z.object({
  points: z.array(
    z.object({ score: z.union([z.literal(0), z.literal(0.5), z.literal(1)]), reason: z.string() }),
  ),
  reason: z.string(),
});

/** The extra grading rules a format asks for (see QaQuestion.rule). */
const RULES: Record<NonNullable<QaQuestion["rule"]>, string> = {
  preference:
    "Here the gold answer describes what a good answer does for this person: the answer is right when it does that, using what the person said they like, even if it says more.",
  latest:
    "Here the fact changed over time: the answer is right when it gives the newest value, even if it also mentions an older one; it is wrong when it gives only an older one.",
  dates:
    "Here the question counts time: a count of days, weeks or months off by one from the gold answer is still right.",
};

/** The judge prompt for one answer. */
export function judgeMessages(q: QaQuestion, gold: string, answer: string): ChatMessage[] {
  const shown = `Question: ${q.question}\nGold answer: ${gold}\nAnswer to grade: ${answer}`;
  if (q.rubric?.length)
    return [
      {
        role: "system",
        content: [
          "You grade an answer to a question about a long conversation against a rubric.",
          "For each rubric point, in order, give score 1 when the answer covers it, 0.5 when it covers part of it, 0 when it misses or contradicts it.",
          "Judge the meaning, not the wording.",
          'Reply with JSON only: {"points": [{"score": 1, "reason": "one short sentence"}, ...], "reason": "one short sentence overall"}, one entry per rubric point.',
        ].join(" "),
      },
      {
        role: "user",
        content: `${shown}\nRubric:\n${q.rubric.map((p, i) => `${i + 1}. ${p}`).join("\n")}`,
      },
    ];
  const rule = q.abstention
    ? [
        "This question cannot be answered from the conversation: the gold answer says why.",
        "The answer is right when it says it cannot tell, that the information was never given, or that the question rests on something that did not happen.",
        "It is wrong when it states an answer as a fact.",
      ]
    : [
        "Be generous: the answer is right when it gives the same fact as the gold answer, even in other words, at more length, or with extra detail that does not contradict it.",
        "A date or time is right when it names the same moment, in any format or as a relative phrase that resolves to it.",
        "The answer is wrong when it gives another fact, misses the point of the gold answer, or says it does not know.",
        ...(q.rule ? [RULES[q.rule]] : []),
      ];
  return [
    {
      role: "system",
      content: [
        "You grade an answer to a question about earlier conversations by comparing it with the gold answer.",
        ...rule,
        'Reply with JSON only: {"reason": "one short sentence", "correct": true or false}.',
      ].join(" "),
    },
    { role: "user", content: shown },
  ];
}
