/**
 * `memlane eval creem-qa`: CREEM's multiple-choice probe (§4.3.3). For every session after the
 * first, a chat model (the exam writer: `--judge-url`/`--judge-model`, not the model under test)
 * reads the session, lists how the partner changed (before -> after) and writes three questions
 * whose right option comes from "after" and whose distractors come from "before"; the options are
 * then shuffled, so the right one's place varies. The exam is written once, from the dialogue alone, and shared by every strategy (no
 * strategy ever sees questions built from its own memory). Each strategy then ingests the
 * conversation up to that session and the model answers from that strategy's whole memory (every
 * memory it holds that the partner may hear, oldest first and dated), as the paper's probe reads
 * each system's memory, not a top k; "D) No answer" is added. A strategy that keeps no memories of
 * its own (none, history) answers from nothing. Accuracy per strategy.
 */
import { z } from "zod";
import { displayName } from "../../../src/core/ids.js";
import { seededRandom } from "../../../src/core/memory-graph.js";
import { fnv1a } from "../../../src/core/text.js";
import { formatDay } from "../../../src/core/time.js";
import { addUsage, emptyUsage, type Memory, type Usage } from "../../../src/core/types.js";
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";
import type { Memlane } from "../../../src/engine/memlane.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { ChatModel } from "../../../src/models/chat-model.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { generateObject } from "../../../src/models/structured.js";
import { recallFor } from "../recall-for.js";

const OPTIONS = ["A", "B", "C"] as const;

const examSchema = z.object({
  changes: z.array(z.object({ before: z.string(), after: z.string() })),
  questions: z
    .array(
      z.object({
        question: z.string().min(3),
        options: z.object({ A: z.string().min(1), B: z.string().min(1), C: z.string().min(1) }),
        answer: z.enum(OPTIONS),
      }),
    )
    .max(3),
});

const answerSchema = z.object({ option: z.enum(["A", "B", "C", "D"]), why: z.string().max(300).optional() });

export interface QaQuestion {
  session: string;
  question: string;
  options: Record<(typeof OPTIONS)[number], string>;
  answer: (typeof OPTIONS)[number];
}

export interface QaReport {
  questions: number;
  exam: QaQuestion[];
  rows: { strategy: string; correct: number; noAnswer: number; accuracy: number }[];
  usage: Usage;
}

/** Writes the exam of one session from its dialogue alone. */
async function examFor(
  chat: ChatModel,
  t: Transcript,
  index: number,
): Promise<{ questions: QaQuestion[]; usage: Usage }> {
  const s = t.sessions[index]!;
  const partner = s.partners[0]!;
  const dialogue = s.turns.map((x) => `${displayName(x.speaker)}: ${x.text}`).join("\n");
  const result = await generateObject(chat, {
    name: "creem_qa_exam",
    schema: examSchema,
    temperature: 0,
    messages: [
      {
        role: "system",
        content: [
          `Read one conversation (${formatDay(s.at)}) and list how ${displayName(partner)}'s situation changed in it: each`,
          "change as what was true before and what is true after. Then write up to three multiple-choice questions",
          "about those changes, each with options A, B and C: the right answer comes from 'after', the wrong ones",
          "from 'before' or other plausible states. No question may be answerable without the change.",
          'Answer with JSON only: {"changes": [{"before": "...", "after": "..."}], "questions": [{"question": "...", "options": {"A": "...", "B": "...", "C": "..."}, "answer": "<A | B | C>"}]}',
        ].join("\n"),
      },
      { role: "user", content: dialogue },
    ],
  });
  return {
    questions: result.object.questions.map((q) => shuffled({ session: s.id, ...q })),
    usage: result.usage,
  };
}

/**
 * Everything a strategy remembers that the transcript's partner may hear (the agent's whole
 * memory, private memories aside, when several partners take part), oldest first.
 */
async function wholeMemory(mem: Memlane, transcript: Transcript, strategy: string): Promise<Memory[]> {
  const audience = recallFor(transcript);
  const hearing =
    "about" in audience
      ? { scope: "partner" as const, partners: [audience.about] }
      : { scope: "agent" as const, partners: [] };
  const memories = await mem.memories(transcript.agent, { strategy, status: "active", hearing });
  return memories.sort((a, b) => a.observedAt.localeCompare(b.observedAt));
}

/**
 * The question with its options in an order of its own (seeded by its text, so every run and
 * every strategy sees the same), so the right answer is not wherever the writer tends to put it.
 */
export function shuffled(q: QaQuestion): QaQuestion {
  const texts = OPTIONS.map((o) => q.options[o]);
  const right = q.options[q.answer];
  const random = seededRandom(fnv1a(q.question));
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  const options = { A: texts[0]!, B: texts[1]!, C: texts[2]! };
  return { ...q, options, answer: OPTIONS[texts.indexOf(right)]! };
}

export async function runCreemQa(options: {
  transcript: Transcript;
  strategies: string[];
  /** The model that answers from each strategy's memory (the system under test). */
  chat: ChatModel;
  /** The model that writes the exam; never the one that answers it (default: `chat`, said in the report). */
  writer?: ChatModel;
  embedder: Embedder;
  /** Keep standing instructions (default false: the paper's protocol has none). */
  standing?: boolean;
  onProgress?: (line: string) => void;
}): Promise<QaReport> {
  const { transcript, chat } = options;
  let usage = emptyUsage();
  // The exam, once, before any strategy runs.
  const exam: QaQuestion[] = [];
  for (let i = 1; i < transcript.sessions.length; i++) {
    options.onProgress?.(`writing questions for ${transcript.sessions[i]!.id}`);
    const written = await examFor(options.writer ?? chat, transcript, i);
    exam.push(...written.questions);
    usage = addUsage(usage, written.usage);
  }
  const rows: QaReport["rows"] = [];
  for (const strategy of options.strategies) {
    options.onProgress?.(`${strategy}: ingesting and answering`);
    const mem = await openMemlane({
      store: ":memory:",
      chat,
      embedder: options.embedder,
      strategy,
      tenant: "qa",
      standing: options.standing ?? false,
    });
    let correct = 0;
    let noAnswer = 0;
    try {
      for (let i = 1; i < transcript.sessions.length; i++) {
        await mem.ingest({ ...transcript, sessions: transcript.sessions.slice(0, i + 1) });
        for (const q of exam.filter((x) => x.session === transcript.sessions[i]!.id)) {
          const memory =
            (await wholeMemory(mem, transcript, strategy))
              .map((m) => `- (${formatDay(m.observedAt)}) ${m.text}`)
              .join("\n") || "(nothing)";
          const answered = await generateObject(chat, {
            name: "creem_qa_answer",
            schema: answerSchema,
            temperature: 0,
            messages: [
              {
                role: "system",
                content:
                  'Answer the question from the memory below alone. If the memory does not say, choose D. Answer with JSON only: {"option": "A", "why": "..."}',
              },
              {
                role: "user",
                content: `Memory:\n${memory}\n\nQuestion: ${q.question}\nA) ${q.options.A}\nB) ${q.options.B}\nC) ${q.options.C}\nD) No answer`,
              },
            ],
          });
          usage = addUsage(usage, answered.usage);
          if (answered.object.option === q.answer) correct++;
          if (answered.object.option === "D") noAnswer++;
        }
      }
    } finally {
      await mem.close();
    }
    rows.push({ strategy, correct, noAnswer, accuracy: exam.length ? correct / exam.length : 0 });
  }
  return { questions: exam.length, exam, rows, usage };
}
