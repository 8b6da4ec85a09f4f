/**
 * MT-Bench+'s judge (§4.1, App. B Table 9; the official `llm_judge.py`): a chat model reads the
 * related history — the (partner, agent) turns of the topics the final question names, the
 * system's own answers included — the question and the reply, explains briefly, and rates how
 * faithful the reply is to that history on an integer scale from 1 to 100, as "[[rating]]". An
 * answer without a rating in range scores nothing (null), as in the official code.
 */
import type { Usage } from "../../../src/core/types.js";
import type { ChatMessage, ChatModel } from "../../../src/models/chat-model.js";

/** The task name the judge's call carries (test doubles answer on it). */
export const JUDGE_TASK = "mtbench_judgement";

export interface JudgeInput {
  /** The related history, oldest first. */
  history: { role: "partner" | "agent"; text: string }[];
  question: string;
  reply: string;
}

export function judgeMessages(input: JudgeInput): ChatMessage[] {
  const history = input.history.map((h) => `${h.role === "partner" ? "user" : "bot"}: ${h.text}`).join("\n");
  return [
    { role: "system", content: "You are a strict, impartial judge of a chat assistant's consistency." },
    {
      role: "user",
      content: [
        `Earlier conversation on the related topics:\n${history}`,
        `\nThe user's question now:\nuser: ${input.question}`,
        `\nThe assistant's reply:\nbot: ${input.reply}`,
        "\nDoes the reply answer the question faithfully to what was said in the earlier conversation? Explain in a few sentences, then give an integer rating from 1 (unfaithful) to 100 (fully faithful), the number alone between double square brackets.",
      ].join("\n"),
    },
  ];
}

/** The rating in a judge's answer, or null when there is none in 1..100. */
export function parseRating(text: string): number | null {
  const m = /\[\[\s*(\d{1,3})\s*\]\]/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 && n <= 100 ? n : null;
}

export async function judge(
  chat: ChatModel,
  input: JudgeInput,
): Promise<{ rating: number | null; usage: Usage }> {
  const result = await chat.generate(judgeMessages(input), {
    task: JUDGE_TASK,
    temperature: 0,
    maxTokens: 400,
  });
  return { rating: parseRating(result.text), usage: result.usage };
}
