/**
 * TeaFarm (Theanine §5.1): a counterfactual question-answering check of whether a memory system
 * references the past correctly. The exam is written once per conversation from the past sessions
 * themselves (exam.ts) and every strategy sits the same one:
 *   1. the strategy ingests the conversation (once, into a scratch file);
 *   2. each question is asked in its own new session, a week after the last one, on a fresh copy
 *      of that store — so no question sees another's answers — after the partner's lead-in lines,
 *      each answered by the agent (the paper chats for a while before asking);
 *   3. a judge decides whether the reply avoided the false premise: the judge model when there is
 *      one, else the offline judge (offline-exam.ts).
 * Besides the correct rate (the paper's Table 3) we report how often the strategy's recall held
 * a turn of the true fact's evidence ("grounded"), and how often its first hit came from the
 * outdated state ("stale first", offline-written exams only: they know the stale turns).
 */
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Cognition } from "../../../src/cognition/cognition.js";
import { LlmCognition } from "../../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import type { Recall } from "../../../src/core/recall.js";
import { addUsage, emptyUsage, type Usage } from "../../../src/core/types.js";
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";
import type { Memlane } from "../../../src/engine/memlane.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { ChatModel } from "../../../src/models/chat-model.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { generateObject } from "../../../src/models/structured.js";
import type { Strategy } from "../../../src/strategies/strategy.js";
import { transcriptFingerprint } from "../transcript-fingerprint.js";
import { type ExamQuestion, type TeafarmExam, writeExam } from "./exam.js";
import { goldMemoryStrategy } from "./gold.js";
import { judgeOffline } from "./offline-exam.js";
import { judgeMessages, judgeSchema } from "./prompts.js";

export interface TeafarmOptions {
  transcript: Transcript;
  /** The model under test's chat model (its replies); absent: offline. */
  chat?: ChatModel | null;
  /**
   * Writes the exam (when none is given) and judges the replies: a model of its own. Absent: the
   * offline writer and judge; `chat` only when the caller passes it here on purpose.
   */
  judge?: ChatModel | null;
  /** Thinking engine of the strategy under test; default LLM with `chat`, else offline (the exam is its writer's). */
  cognition?: Cognition;
  embedder: Embedder;
  /** The strategy under test, or "gold": the reply sees the exam's gold memory (gold.ts). */
  strategy: Strategy | "gold";
  /** The exam to sit; absent: one is written (pass it on to the next strategy to share it). */
  exam?: TeafarmExam;
  /** Counterfactual questions to write when no exam is given (default 5). */
  questions?: number;
  /** Keep standing instructions (default false: the paper's protocol has none). */
  standing?: boolean;
  onProgress?: (step: string) => void;
}

export interface TeafarmItem {
  id: string;
  about: string;
  question: string;
  premise: string;
  fact: string;
  answer: string;
  reply: string;
  correct: boolean;
  why: string;
  /** The strategy's recall held a turn the true fact rests on; null when the exam names none. */
  grounded: boolean | null;
  /** The first recalled hit rests on the outdated state; null when the exam names no stale turns. */
  staleFirst: boolean | null;
}

export interface TeafarmReport {
  agent: string;
  partner: string;
  strategy: string;
  sessions: number;
  /** The exam sat: its writer and fingerprint (the whole exam is `exam`). */
  writer: string;
  fingerprint: string;
  judge: string;
  items: TeafarmItem[];
  correctRate: number;
  /** Share of items with evidence whose recall held it. */
  groundedRate: number | null;
  usage: Usage;
  exam: TeafarmExam;
}

/** The cognition TeaFarm uses when none is given. */
export function teafarmCognition(chat: ChatModel | null | undefined, embedder: Embedder): Cognition {
  return chat ? new LlmCognition(chat) : new OfflineCognition(embedder);
}

/** One strategy sits one conversation's exam (written here if not given). */
export async function runTeafarm(options: TeafarmOptions): Promise<TeafarmReport> {
  const { transcript, embedder, strategy } = options;
  const chat = options.chat ?? null;
  const judge = options.judge ?? null;
  const cognition = options.cognition ?? teafarmCognition(chat, embedder);
  const exam =
    options.exam ??
    (await writeExam(transcript, {
      embedder,
      chat: judge,
      questions: options.questions ?? 5,
      onProgress: options.onProgress,
    }));
  if (exam.fingerprint !== transcriptFingerprint(transcript))
    throw new Error(`The exam given was written for another conversation than ${transcript.agent}'s`);
  const name = strategy === "gold" ? "gold" : strategy.name;
  const agent = transcript.agent;
  const partner = exam.partner;
  const at = new Date(Date.parse(transcript.sessions.at(-1)!.at) + 7 * 86_400_000).toISOString();
  const dir = await mkdtemp(join(tmpdir(), "memlane-teafarm-"));
  const base = join(dir, "ingested.db");
  let usage = emptyUsage();
  const open = (store: string, s: Strategy) =>
    openMemlane({
      store,
      cognition,
      chat: chat ?? undefined,
      embedder,
      strategy: s,
      tenant: "teafarm",
      standing: options.standing ?? false,
    });
  try {
    if (strategy !== "gold") {
      options.onProgress?.(`${name}: ingesting ${transcript.sessions.length} sessions`);
      const mem = await open(base, strategy);
      await mem.ingest(transcript);
      for (const op of await mem.store.listOperations(mem.scope(agent))) usage = addUsage(usage, op.usage);
      await mem.close();
    }
    const items: TeafarmItem[] = [];
    for (const [i, item] of exam.questions.entries()) {
      options.onProgress?.(`${name}: asking question ${i + 1}/${exam.questions.length}`);
      // A fresh copy of the ingested store per question: no question sees another's session.
      const copy = join(dir, `q${i + 1}.db`);
      if (strategy !== "gold") await copyFile(base, copy);
      const mem =
        strategy === "gold"
          ? await open(":memory:", goldMemoryStrategy(exam, item))
          : await open(copy, strategy);
      try {
        const session = await mem.session({ agent, partner, at, id: `teafarm-${item.id}` });
        for (const line of item.leadIn) {
          await session.turn(partner, line);
          await session.reply();
        }
        await session.turn(partner, item.question);
        const { text, recall } = await session.reply();
        for (const op of await mem.store.listOperations(mem.scope(agent), { sessionId: session.id }))
          usage = addUsage(usage, op.usage);
        const verdict = judge
          ? await judgeWithModel(judge, item, text)
          : { ...judgeOffline(item, text), usage: emptyUsage() };
        usage = addUsage(usage, verdict.usage);
        const held = await recalledTurns(mem, agent, recall);
        items.push({
          id: item.id,
          about: item.about,
          question: item.question,
          premise: item.premise,
          fact: item.fact,
          answer: item.answer,
          reply: text,
          correct: verdict.correct,
          why: verdict.why,
          grounded: item.evidence.length ? item.evidence.some((t) => held.all.has(t)) : null,
          staleFirst: item.stale.length ? item.stale.some((t) => held.first.has(t)) : null,
        });
      } finally {
        await mem.close();
        await rm(copy, { force: true });
      }
    }
    const withEvidence = items.filter((x) => x.grounded !== null);
    return {
      agent,
      partner,
      strategy: name,
      sessions: transcript.sessions.length,
      writer: exam.writer,
      fingerprint: exam.fingerprint,
      judge: judge ? judge.name : "offline",
      items,
      correctRate: items.length ? items.filter((x) => x.correct).length / items.length : 0,
      groundedRate: withEvidence.length
        ? withEvidence.filter((x) => x.grounded).length / withEvidence.length
        : null,
      usage,
      exam,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function judgeWithModel(chat: ChatModel, item: ExamQuestion, reply: string) {
  const verdict = await generateObject(chat, {
    name: "teafarm_judgement",
    schema: judgeSchema,
    messages: judgeMessages(item.question, item.fact, item.answer, reply, item.premise),
    temperature: 0,
  });
  return { correct: verdict.object.correct, why: verdict.object.why, usage: verdict.usage };
}

/** Turn ids behind everything the reply was shown: hits and timeline entries; and the first hit's. */
async function recalledTurns(
  mem: Memlane,
  agent: string,
  recall: Recall,
): Promise<{ all: Set<string>; first: Set<string> }> {
  const all = new Set(recall.hits.flatMap((h) => h.sourceTurns));
  const entries = new Set((recall.timelines ?? []).flatMap((t) => t.entries.map((e) => e.id)));
  if (entries.size > 0)
    for (const m of await mem.memories(agent, { status: "any" }))
      if (entries.has(m.id)) for (const t of m.sourceTurns) all.add(t);
  return { all, first: new Set(recall.hits[0]?.sourceTurns ?? []) };
}
