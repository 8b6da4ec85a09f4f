/**
 * The TeaFarm exam (Theanine §5.1), written once per conversation from the past sessions
 * themselves — never from a strategy's memory — and put unchanged to every strategy of a run:
 *   1. every past session is summarized on its own (the `summarize` step run on the transcript's
 *      turns, no store, no strategy), oldest first;
 *   2. a writer reads the summaries in order and writes counterfactual questions about both
 *      speakers, each with the true fact, the correct answer, the evidence it rests on and a
 *      short lead-in the partner says first.
 * With a chat model the model writes them; offline, a simple writer pairs statements of later
 * sessions with similar older ones about the same person and asks about the older state as if it
 * still held (see offline-exam.ts). The summaries are the writer's too (its model, or the offline
 * engine), never the model under test's, so two systems compared sit one exam. An exam is cached
 * by the transcript's fingerprint and its writer, so a rerun (another strategy, another model
 * under test, an ablation) sits the very same questions.
 */
import { readFile, writeFile } from "node:fs/promises";
import { z } from "zod";
import type { Cognition } from "../../../src/cognition/cognition.js";
import { LlmCognition } from "../../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../../src/core/errors.js";
import { displayName } from "../../../src/core/ids.js";
import { formatDay } from "../../../src/core/time.js";
import { addUsage, emptyUsage, type Turn, type Usage } from "../../../src/core/types.js";
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";
import type { ChatModel } from "../../../src/models/chat-model.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { generateObject } from "../../../src/models/structured.js";
import { summarizeStep } from "../../../src/strategies/kit/steps/summarize.js";
import { transcriptFingerprint } from "../transcript-fingerprint.js";
import type { ExamQuestion, SessionSummary, SummaryLine } from "./exam-shapes.js";
import { offlineQuestions } from "./offline-exam.js";
import { questionMessages, questionsSchema } from "./prompts.js";

export type { ExamQuestion, SessionSummary, SummaryLine };

export interface TeafarmExam {
  format: "memlane-teafarm-exam";
  version: 1;
  /** sha256 of the transcript's sessions and turns: which conversation this exam belongs to. */
  fingerprint: string;
  agent: string;
  partner: string;
  sessions: number;
  /** "offline" or the chat model that wrote the questions. */
  writer: string;
  /** How many questions were asked for (the offline writer may find fewer). */
  requested: number;
  summaries: SessionSummary[];
  questions: ExamQuestion[];
  /** What writing it cost (summaries and questions). */
  usage: Usage;
}

export interface WriteExamOptions {
  embedder: Embedder;
  /** The exam's writer (summaries and questions); absent: the offline writer. */
  chat?: ChatModel | null;
  questions: number;
  onProgress?: (step: string) => void;
}

/** Writes the exam of one conversation: summaries of every session, then the questions. */
export async function writeExam(transcript: Transcript, options: WriteExamOptions): Promise<TeafarmExam> {
  const agent = transcript.agent;
  const partner = transcript.sessions.at(-1)!.partners[0]!;
  let usage = emptyUsage();
  const cognition: Cognition = options.chat
    ? new LlmCognition(options.chat)
    : new OfflineCognition(options.embedder);
  const summaries: SessionSummary[] = [];
  for (const [i, s] of transcript.sessions.entries()) {
    options.onProgress?.(`summarizing session ${i + 1}/${transcript.sessions.length} for the exam`);
    const turns: Turn[] = s.turns.map((t, index) => ({
      ...t,
      tenant: "teafarm",
      agent,
      sessionId: s.id,
      index,
    }));
    const result = await cognition.run(summarizeStep, {
      agent,
      partners: s.partners,
      sessionId: s.id,
      at: s.at,
      turns,
    });
    usage = addUsage(usage, result.usage);
    summaries.push({
      session: s.id,
      at: s.at,
      lines: result.value.map((x) => ({ about: x.about, text: x.text, turns: x.sourceTurns })),
    });
  }
  options.onProgress?.("writing counterfactual questions");
  let questions: ExamQuestion[];
  let writer = "offline";
  if (options.chat) {
    const numbered = numberedLines(summaries);
    const generated = await generateObject(options.chat, {
      name: "counterfactual_questions",
      schema: questionsSchema,
      messages: questionMessages(displayName(agent), displayName(partner), numbered.text, options.questions),
      // The paper writes its exam at a warm temperature; it is written once, then cached.
      temperature: 0.7,
    });
    usage = addUsage(usage, generated.usage);
    writer = examWriter(options.chat);
    questions = generated.object.questions.slice(0, options.questions).map((q, i) => ({
      id: `q${i + 1}`,
      about: q.about === "agent" ? agent : partner,
      question: q.question,
      premise: q.premise,
      fact: q.fact,
      answer: q.answer,
      leadIn: q.leadIn,
      evidence: [...new Set(q.evidence.flatMap((n) => numbered.lines[n]?.turns ?? []))],
      stale: [],
    }));
  } else {
    questions = await offlineQuestions(
      summaries,
      { agent, partner, count: options.questions },
      options.embedder,
    );
  }
  return {
    format: "memlane-teafarm-exam",
    version: 1,
    fingerprint: transcriptFingerprint(transcript),
    agent,
    partner,
    sessions: transcript.sessions.length,
    writer,
    requested: options.questions,
    summaries,
    questions,
    usage,
  };
}

/** The summaries as the writer reads them: per session, each line numbered across the exam. */
function numberedLines(summaries: SessionSummary[]): { text: string; lines: SummaryLine[] } {
  const lines: SummaryLine[] = [];
  const text = summaries
    .map((s, i) => {
      const body = s.lines.map((l) => {
        lines.push(l);
        return `[${lines.length - 1}] ${l.text}`;
      });
      return `Session ${i + 1} (${formatDay(s.at)}):\n${body.join("\n") || "(nothing worth keeping)"}`;
    })
    .join("\n\n");
  return { text, lines };
}

const examFileSchema = z.object({
  format: z.literal("memlane-teafarm-exams"),
  exams: z.array(
    z.looseObject({
      format: z.literal("memlane-teafarm-exam"),
      version: z.literal(1),
      fingerprint: z.string(),
      writer: z.string(),
      questions: z.array(z.looseObject({ question: z.string(), fact: z.string() })),
    }),
  ),
});

/** The writer's name an exam written by `chat` carries ("offline" without one). */
export function examWriter(chat: ChatModel | null | undefined): string {
  return chat ? chat.name : "offline";
}

/** The cached exam of a conversation by one writer, if the cache has it. */
export function cachedExam(
  exams: TeafarmExam[],
  fingerprint: string,
  writer: string,
): TeafarmExam | undefined {
  return exams.find((e) => e.fingerprint === fingerprint && e.writer === writer);
}

/** Exams cached in a file, by transcript fingerprint and writer; a missing file is an empty cache. */
export async function readExams(path: string): Promise<TeafarmExam[]> {
  let raw: string;
  try {
    raw = await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidInputError(`${path} is not a TeaFarm exam file (not JSON)`);
  }
  const checked = examFileSchema.safeParse(parsed);
  if (!checked.success)
    throw new InvalidInputError(`${path} is not a TeaFarm exam file: ${checked.error.issues[0]?.message}`);
  return checked.data.exams as unknown as TeafarmExam[];
}

/** Writes the exams (those of other conversations or writers already in the file are kept). */
export async function writeExams(path: string, exams: TeafarmExam[]): Promise<void> {
  const key = (e: TeafarmExam) => `${e.fingerprint}\n${e.writer}`;
  const byPrint = new Map((await readExams(path)).map((e) => [key(e), e]));
  for (const e of exams) byPrint.set(key(e), e);
  await writeFile(
    path,
    `${JSON.stringify({ format: "memlane-teafarm-exams", exams: [...byPrint.values()] }, null, 2)}\n`,
  );
}
