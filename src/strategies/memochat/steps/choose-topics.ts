/**
 * Step `memochat.choose-topics`: MemoChat's memo retrieval (§3.2, App. B Table 7). The partner's
 * utterance and the memo's entries as numbered options "topic. summary", one of them "none of the
 * others"; the answer is a set of option numbers. Choosing none-of-the-others, or numbers that
 * name no entry, chooses nothing (the paper drops them; we keep them in the value so a report can
 * count them). The paper's raw answer is "N#M"; we ask for the same set as JSON and read the
 * paper's form too (`readChoice`), as a model tuned on MemoChat's data answers in it. An answer
 * that never fits chooses nothing (the step's fallback): the reply goes on without the memo.
 * Offline: every entry scored against the utterance by a hybrid of sentence-vector cosine and the
 * share of the utterance's BM25 weight the entry carries; entries over a threshold (and close
 * enough to the best) are chosen, and nothing is when no entry clears it: that is none-of-the-
 * others (offline-chooser.ts).
 */
import { z } from "zod";
import { defineStep } from "../../../cognition/step.js";
import { formatDay } from "../../../core/time.js";
import type { ChooseTopicsValue, TopicOption } from "../memo-shapes.js";
import { type ChooserOptions, chooseOffline } from "../offline-chooser.js";

export type { ChooseTopicsValue, TopicOption };

export interface ChooseTopicsInput {
  /** The partner's utterance the reply answers. */
  query: string;
  options: TopicOption[];
  /** When the utterance is said (conversation time), shown beside the entries' dates. */
  at?: string;
  /** Offline engine only: its threshold, gate and cap. */
  offline?: ChooserOptions;
}

const answer = z.object({ options: z.array(z.number().int()).max(50) });

const input = z.object({
  query: z.string().min(1),
  options: z
    .array(
      z.object({
        n: z.number().int().min(1),
        topic: z.string(),
        summary: z.string(),
        none: z.boolean().optional(),
        at: z.string().optional(),
      }),
    )
    .min(1),
  at: z.string().optional(),
  offline: z
    .object({
      threshold: z.number().optional(),
      gate: z.number().min(0).max(1).optional(),
      max: z.number().int().min(1).optional(),
    })
    .optional(),
});

/** The option list as the prompt shows it: "(2) topic. summary [7 May 2024]" (the date when known). */
export function optionLines(options: TopicOption[]): string {
  return options
    .map((o) =>
      o.none
        ? `(${o.n}) none of the others.`
        : `(${o.n}) ${o.topic}. ${o.summary}${o.at ? ` [${formatDay(o.at)}]` : ""}`,
    )
    .join("\n");
}

/**
 * A choice given in prose: the paper's "N#M" anywhere in the answer, else a short answer that
 * names only option numbers ("Option 2", "2 and 5"), or says none relates (the none option).
 * Undefined when it is neither.
 */
export function readChoice(text: string, options: TopicOption[]): { options: number[] } | undefined {
  const hashed = /\d+(?:\s*#\s*\d+)+/.exec(text);
  if (hashed) return { options: hashed[0].split("#").map((n) => Number(n.trim())) };
  const plain = text.replace(/[`*"{}[\]]/g, " ").trim();
  if (plain.length > 120) return undefined;
  const none = options.find((o) => o.none);
  if (/\bnone\b/i.test(plain) && none) return { options: [none.n] };
  const numbers = (plain.match(/\d+/g) ?? []).map(Number);
  if (numbers.length === 0 || numbers.some((n) => n < 1 || n > options.length)) return undefined;
  return { options: numbers };
}

/** An answer's numbers sorted into chosen entries and the ones that choose nothing. */
export function sortChoice(numbers: number[], options: TopicOption[]): ChooseTopicsValue {
  const byN = new Map(options.map((o) => [o.n, o]));
  const chosen: number[] = [];
  const ignored: number[] = [];
  for (const n of [...new Set(numbers)]) {
    const o = byN.get(n);
    if (o && !o.none) chosen.push(n);
    else ignored.push(n);
  }
  return { chosen: chosen.sort((a, b) => a - b), ignored };
}

export const chooseTopicsStep = defineStep<ChooseTopicsInput, ChooseTopicsValue, z.infer<typeof answer>>({
  name: "memochat.choose-topics",
  // v2: the utterance and the entries carry their dates.
  // v3: the paper's "N#M" and short prose answers are read; an answer that never fits chooses nothing.
  version: 3,
  description: "the memo entries an utterance needs, chosen by number (or none of the others)",
  input,
  output: answer,
  maxTokens: 64,
  prompt: (i) => [
    {
      role: "system",
      content: "You look things up in a conversation memo: which earlier topics does the new utterance need?",
    },
    {
      role: "user",
      content: [
        ...(i.at ? [`Today is ${formatDay(i.at)}; each topic shows the date it was talked about.`, ""] : []),
        `Utterance:\n${i.query}`,
        "",
        `Memo topics (${i.options.length} options):`,
        optionLines(i.options),
        "",
        "Task: choose every topic option the utterance relates to: one, or several when it draws on several.",
        'If none of the topics relates to it, choose only the "none of the others" option.',
        `Give option numbers only, each between 1 and ${i.options.length}. Answer with JSON only: {"options": [N, M]}.`,
      ].join("\n"),
    },
  ],
  decode: (a, i) => sortChoice(a.options, i.options),
  prose: (text, i) => readChoice(text, i.options),
  fallback: { what: "no memo entry chosen", value: () => ({ chosen: [], ignored: [] }) },
  offline: (i, kit) => chooseOffline(i.query, i.options, kit.embedder, i.offline),
});
