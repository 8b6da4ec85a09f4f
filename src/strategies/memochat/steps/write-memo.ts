/**
 * Step `memochat.write-memo`: MemoChat's memo writing (§3.2, Fig. 3, App. B Table 6). The lines
 * of the buffer, numbered from 1, become memo entries `{topic, summary, start, end}` whose ranges
 * split the buffer: in order, no gap, no overlap, each start at most its end (the paper's prompt
 * says "end smaller than start", a slip its own example contradicts; we check start ≤ end). An
 * answer that is not such a partition fails the schema, is retried with the error shown, and at
 * last fails the turn's operation: the lines stay in the buffer (the paper's code files them under
 * "none of the others", where nothing can find them again).
 * The prompt follows the paper's two lessons: the task comes after the material, and the format
 * example uses letters, not numbers a model could copy. Offline: topic segmentation
 * (offline-writer.ts).
 */
import { z } from "zod";
import { chunkItems, defineStep, type StepBatching } from "../../../cognition/step.js";
import { displayName } from "../../../core/ids.js";
import { formatDay } from "../../../core/time.js";
import type { MemoEntry, MemoLine } from "../memo-shapes.js";
import { writeMemoOffline } from "../offline-writer.js";

export type { MemoEntry, MemoLine };

export interface WriteMemoInput {
  agent: string;
  /** The lines to write down, line 1 first. */
  lines: MemoLine[];
  /** Offline only: the cosine below which a new exchange starts a new topic. */
  cut?: number;
  /**
   * The number, in the whole buffer, of this input's line 1, when it is a part of a buffer too
   * long for the model's window (default 1); the answer's ranges are read from it.
   */
  first?: number;
}

const line = z.object({
  speaker: z.string().min(1),
  text: z.string(),
  generated: z.boolean().optional(),
  at: z.string().optional(),
});

const input = z.object({
  agent: z.string().min(1),
  lines: z.array(line).min(1),
  cut: z.number().min(-1).max(1).optional(),
  first: z.number().int().min(1).optional(),
});

const entry = z.object({
  topic: z.string().trim().min(1).max(120),
  summary: z.string().trim().min(1).max(1200),
  start: z.number().int(),
  end: z.number().int(),
});

type Answer = { memos: MemoEntry[] };

/** The answer for `n` lines: entries whose ranges split lines 1..n in order. */
export function memoAnswerSchema(n: number): z.ZodType<Answer> {
  return z.object({ memos: z.array(entry).min(1) }).superRefine((value, ctx) => {
    const problem = partitionProblem(value.memos, n);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }) as z.ZodType<Answer>;
}

/** Why `entries` do not split lines 1..n into consecutive ranges, or null when they do. */
export function partitionProblem(entries: Pick<MemoEntry, "start" | "end">[], n: number): string | null {
  let next = 1;
  for (const [i, e] of entries.entries()) {
    if (e.start !== next)
      return `memo ${i + 1} starts at line ${e.start}, but the next uncovered line is ${next}: ranges must follow each other with no gap or overlap`;
    if (e.end < e.start) return `memo ${i + 1} ends (line ${e.end}) before it starts (line ${e.start})`;
    if (e.end > n) return `memo ${i + 1} ends at line ${e.end}, past the last line ${n}`;
    next = e.end + 1;
  }
  return next === n + 1 ? null : `the memos stop at line ${next - 1}; they must reach the last line ${n}`;
}

/**
 * The buffer as the prompt numbers it: "(line 1) Sam: …". A line said on another day than the
 * one before it (the first line: than `day`, the conversation's date the header shows) is
 * marked with its date, "(line 7) [8 May 2024] Sam: …".
 */
export function numberedLines(lines: MemoLine[], day?: string): string {
  let previous = day;
  // One physical line per buffer line: a line break inside an utterance is shown as "↵".
  return lines
    .map((l, i) => {
      const shown = l.at ? formatDay(l.at) : previous;
      const date = shown !== previous && shown ? `[${shown}] ` : "";
      previous = shown;
      return `(line ${i + 1}) ${date}${displayName(l.speaker)}: ${l.text.replace(/\s*\n\s*/g, " ↵ ")}`;
    })
    .join("\n");
}

/** The day the buffer's first dated line was said, as prompts show it. */
export function firstDay(lines: { at?: string }[]): string | undefined {
  const at = lines.find((l) => l.at)?.at;
  return at ? formatDay(at) : undefined;
}

/**
 * A buffer too long for the model's window is written down in consecutive parts, each numbered
 * from 1 as a buffer of its own; `first` says where each starts, so the entries' ranges still
 * split the whole buffer. A topic that runs across a cut gets an entry in each part.
 */
function memoBatching(): StepBatching<WriteMemoInput, MemoEntry[]> {
  const chunks = chunkItems<WriteMemoInput, "lines", MemoEntry>("lines");
  return {
    ...chunks,
    split(input, size, budget) {
      let first = input.first ?? 1;
      return chunks.split(input, size, budget).map((part) => {
        const numbered = part === input ? part : { ...part, first };
        first += part.lines.length;
        return numbered;
      });
    },
  };
}

export const writeMemoStep = defineStep<WriteMemoInput, MemoEntry[], Answer>({
  name: "memochat.write-memo",
  // v2: the lines carry their date, and relative times are written as dates; a buffer longer
  // than the model's window is written in parts.
  version: 2,
  description: "the buffer's numbered lines split into memo entries {topic, summary, start, end}",
  input,
  output: (i) => memoAnswerSchema(i.lines.length),
  maxTokens: 1024,
  prompt: (i) => {
    const n = i.lines.length;
    const day = firstDay(i.lines);
    return [
      {
        role: "system",
        content: `You keep ${displayName(i.agent)}'s memo of a conversation: which topics were discussed, where, and what was said about each.`,
      },
      {
        role: "user",
        content: [
          `Conversation${day ? ` of ${day}` : ""} (${n} numbered lines):`,
          numberedLines(i.lines, day),
          "",
          "Task:",
          "1. Find every topic the conversation above covers and name each with a short phrase.",
          `2. Give each topic its range of lines. The ranges follow each other: the first starts at line 1, each next one starts on the line after the previous one ends, and the last ends at line ${n}. A range may be a single line; no range ends before it starts.`,
          "3. Summarise in one or two sentences what was said and decided in each range, naming who said it.",
          ...(day
            ? [
                "   Write times as dates: turn 'yesterday', 'next month' and the like into dates from the date the line was said.",
              ]
            : []),
          'Answer with JSON only: {"memos": [{"topic": "...", "summary": "...", "start": A, "end": B}, ...]}.',
          'For instance, if lines 1 to K were about a trip and lines K+1 to L about a recipe, the answer lists {"topic": "trip", …, "start": 1, "end": K} and then {"topic": "recipe", …, "start": K+1, "end": L}.',
        ].join("\n"),
      },
    ];
  },
  decode: (answer, i) =>
    answer.memos.map((m) => ({
      ...m,
      topic: m.topic.trim(),
      summary: m.summary.trim(),
      start: m.start + (i.first ?? 1) - 1,
      end: m.end + (i.first ?? 1) - 1,
    })),
  batch: memoBatching(),
  offline: (i, kit) => writeMemoOffline(i.agent, i.lines, kit.embedder, { cut: i.cut }),
});
