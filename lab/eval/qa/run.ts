/**
 * The QA lab's run: for every conversation and every condition (a memlane strategy, or a
 * baseline: the whole conversation, or no memory), each question is answered by the answer model
 * from what the condition gives it, and graded by a separate judge model against the gold answer
 * (right/wrong, or point by point against a rubric), with token F1 beside it. A strategy ingests
 * the conversation once into a fresh in-memory engine and recalls k hits per question, dated
 * when the question is asked (strategy "none", which keeps no memories, recalls raw turns).
 * Answers and grades come from the cache when they are there, so a rerun pays only for what is
 * missing (a conversation whose answers are all cached is not even ingested). A call that fails
 * after the client's retries, or a grade that never fits its schema, is kept as an error row:
 * reported, not cached, tried again by the next run.
 */

import { VERSION } from "../../../src/cli/version.js";
import type { Cognition } from "../../../src/cognition/cognition.js";
import { SchemaMismatchError } from "../../../src/core/errors.js";
import { displayName } from "../../../src/core/ids.js";
import { addUsage, emptyUsage, subtractUsage, type Usage } from "../../../src/core/types.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import { type ChatModel, estimateTokens } from "../../../src/models/chat-model.js";
import type { Embedder } from "../../../src/models/embedder.js";
import { generateObject } from "../../../src/models/structured.js";
import type { Strategy } from "../../../src/strategies/strategy.js";
import { recallFor } from "../recall-for.js";
import { transcriptFingerprint } from "../transcript-fingerprint.js";
import { type CachedAnswer, type CachedGrade, cacheKey, type QaCache } from "./cache.js";
import { fullContext, recallContext, recalledTurns } from "./context.js";
import {
  ANSWER_PROMPT_VERSION,
  answerMaxTokens,
  answerMessages,
  JUDGE_PROMPT_VERSION,
  judgeMessages,
  rubricSchema,
  verdictSchema,
} from "./prompts.js";
import type { QaConversation, QaQuestion, QaSet } from "./qa-set.js";
import { tokenF1 } from "./token-f1.js";

/** The baselines a run can add beside the strategies. */
export const BASELINES = ["full-context", "no-memory"] as const;
/** One of BASELINES. */
export type Baseline = (typeof BASELINES)[number];

/** Tokens kept back from the window for the prompt's frame, the question and the answer. */
export const ANSWER_RESERVE_TOKENS = 1024;

/** The models and parts a run uses. */
export interface QaPorts {
  /** The model under test: it answers. */
  answer: ChatModel;
  /** The judge: never the model under test. */
  judge: ChatModel;
  /** The answer model and the judge as the cache knows them (model and endpoint); default their names. */
  answerId?: string;
  judgeId?: string;
  embedder: Embedder;
  /** A fresh memory writer for one strategy's run over one conversation. */
  cognition: () => Cognition;
  /** The writer's name in cache keys ("offline", or the writing model's). */
  writer: string;
  /** What the memory writer's model has cost so far (absent: the offline writer, free). */
  writerUsage?: () => Usage;
  /** A strategy by name. */
  strategy: (name: string) => Strategy;
}

/** Theanine's timelines per question: the paper retrieves 3 memories, one timeline each. */
export const THEANINE_TIMELINES = 3;

/** Hits a strategy recalls per question: `k`, except theanine's timelines. */
export function recallK(name: string, options: Pick<QaRunOptions, "k" | "theanineK">): number {
  return name === "theanine" ? (options.theanineK ?? THEANINE_TIMELINES) : options.k;
}

/** What a run asks, and how. */
export interface QaRunOptions {
  strategies: string[];
  baselines: readonly Baseline[];
  /** Hits recalled per question. */
  k: number;
  /** Theanine's timelines per question (default THEANINE_TIMELINES, the paper's; not `k`). */
  theanineK?: number;
  /** The answer model's window in tokens (the full-context baseline is cut to fit). */
  contextWindow: number;
  /** Model calls in flight at once. */
  concurrency: number;
  cache: QaCache;
  onProgress?: (done: number, total: number, label: string) => void;
}

/** One question under one condition. */
export interface QaRow {
  conversationId: string;
  questionId: string;
  category: string;
  apart: boolean;
  /** The question cannot be answered from the conversation (graded as such). */
  abstention: boolean;
  condition: string;
  answer: string | null;
  /** 1 right, 0 wrong, a rubric's mean in between; null when no grade (see `error`). */
  score: number | null;
  f1: number | null;
  reason: string;
  /** Why the row has no answer or no grade. */
  error?: string;
  evidence: { found: number; total: number };
  /** Full context: turns shown, of the conversation's. */
  shown?: { kept: number; total: number };
  usage: { answer: Usage; judge: Usage };
  latency: { recall: number; answer: number; judge: number };
  /** Whether the answer and the grade came from the cache (nothing paid this run). */
  cached: { answer: boolean; grade: boolean };
}

/** A run's rows and what the report needs to know about it. */
export interface QaRun {
  format: string;
  conditions: string[];
  rows: QaRow[];
  /** Per strategy: what its memory writer's model cost (writing and recall's own calls). */
  memory: Record<string, Usage>;
  answerModel: string;
  judgeModel: string;
  /** The memory writer ("offline", or its model's name). */
  writer: string;
  k: number;
  contextWindow: number;
}

/** A question with what its condition shows the answer model. */
interface Prepared {
  q: QaQuestion;
  answerKey: string;
  context: string;
  heading: string;
  recallMs: number;
  evidence: { found: number; total: number };
  shown?: { kept: number; total: number };
}

/** Runs every condition over every conversation of `set`. */
export async function runQa(set: QaSet, ports: QaPorts, options: QaRunOptions): Promise<QaRun> {
  const conditions = [...options.strategies, ...options.baselines];
  const memory: Record<string, Usage> = {};
  const total = set.conversations.reduce((n, c) => n + c.questions.length, 0) * conditions.length;
  // One limit for the whole run: a file of one-question conversations (LongMemEval) still keeps
  // `concurrency` calls in flight, and the next conversation is ingested while calls are out.
  const limit = new Limit(options.concurrency);
  const rows: QaRow[] = [];
  const pending: Promise<void>[] = [];
  let done = 0;
  for (const conversation of set.conversations) {
    const fingerprint = transcriptFingerprint(conversation.transcript);
    for (const condition of conditions) {
      const label = `${conversation.id} · ${condition}`;
      options.onProgress?.(done, total, label);
      const isStrategy = options.strategies.includes(condition);
      // Everything that changes an answer; what changes a grade is keyed in answerAndGrade.
      const keyOf = (q: QaQuestion) =>
        cacheKey([
          q.id,
          q.question,
          q.askedAt ?? null,
          q.rubric ?? null,
          condition,
          isStrategy ? [recallK(condition, options), ports.writer, ports.embedder.name, VERSION] : null,
          condition === "none" ? "turns" : null,
          condition === "full-context" ? options.contextWindow : null,
          ports.answerId ?? ports.answer.name,
          fingerprint,
          ANSWER_PROMPT_VERSION,
        ]);
      const prepared = isStrategy
        ? await recallAll(conversation, condition, keyOf, ports, options, memory)
        : conversation.questions.map((q) =>
            baseline(conversation, q, condition as Baseline, keyOf(q), options),
          );
      // Rows keep the file's question order, whatever order the calls finish in.
      const at = rows.length;
      rows.length += prepared.length;
      for (const [i, p] of prepared.entries())
        pending.push(
          limit.run(async () => {
            rows[at + i] = await answerAndGrade(conversation, condition, p, ports, options.cache);
            options.onProgress?.(++done, total, label);
          }),
        );
    }
  }
  await Promise.all(pending);
  return {
    format: set.format,
    conditions,
    rows,
    memory,
    answerModel: ports.answer.name,
    judgeModel: ports.judge.name,
    writer: ports.writer,
    k: options.k,
    contextWindow: options.contextWindow,
  };
}

/** A strategy's recall for every question not yet answered in the cache (ingesting only then). */
async function recallAll(
  conversation: QaConversation,
  name: string,
  keyOf: (q: QaQuestion) => string,
  ports: QaPorts,
  options: QaRunOptions,
  memory: Record<string, Usage>,
): Promise<Prepared[]> {
  // The memory is the agent's: its first-person lines are the agent's own words.
  const heading = `What ${displayName(conversation.transcript.agent)}'s memory recalled ("I" there is ${displayName(conversation.transcript.agent)})`;
  const empty = (q: QaQuestion): Prepared => ({
    q,
    answerKey: keyOf(q),
    context: "",
    heading,
    recallMs: 0,
    evidence: { found: 0, total: q.evidence.length },
  });
  const missing = conversation.questions.filter((q) => !options.cache.answer(keyOf(q)));
  const memoryKey = cacheKey([conversation.id, name, ports.writer, recallK(name, options)]);
  const spent = (usage: Usage) => {
    memory[name] = addUsage(memory[name] ?? emptyUsage(), usage);
  };
  if (missing.length === 0) {
    spent(options.cache.memory(memoryKey)?.usage ?? emptyUsage());
    return conversation.questions.map(empty);
  }
  const before = ports.writerUsage?.() ?? emptyUsage();
  const mem = await openMemlane({
    store: ":memory:",
    cognition: ports.cognition(),
    embedder: ports.embedder,
    strategy: ports.strategy(name),
    tenant: "qa",
  });
  const out = new Map<string, Prepared>();
  try {
    await mem.ingest(conversation.transcript);
    for (const q of missing) {
      const started = performance.now();
      const recall = await mem.recall({
        agent: conversation.transcript.agent,
        ...recallFor(conversation.transcript),
        query: q.question,
        k: recallK(name, options),
        // Strategy "none" keeps turns and nothing else: its recall is the raw turns.
        ...(name === "none" ? { units: "turns" as const } : {}),
        ...(q.askedAt ? { now: q.askedAt } : {}),
      });
      const recallMs = performance.now() - started;
      const turns = recalledTurns(recall);
      out.set(q.id, {
        ...empty(q),
        context: recallContext(recall),
        recallMs,
        evidence: { found: q.evidence.filter((id) => turns.has(id)).length, total: q.evidence.length },
      });
    }
  } finally {
    await mem.close();
  }
  const usage = subtractUsage(ports.writerUsage?.() ?? emptyUsage(), before);
  spent(usage);
  await options.cache.put({ type: "memory", key: memoryKey, condition: name, usage });
  return conversation.questions.map((q) => out.get(q.id) ?? empty(q));
}

/** What a baseline shows: the conversation cut to the window, or nothing. */
function baseline(
  conversation: QaConversation,
  q: QaQuestion,
  condition: Baseline,
  answerKey: string,
  options: QaRunOptions,
): Prepared {
  if (condition === "no-memory")
    return {
      q,
      answerKey,
      context: "",
      heading: "",
      recallMs: 0,
      evidence: { found: 0, total: q.evidence.length },
    };
  const budget = options.contextWindow - ANSWER_RESERVE_TOKENS - estimateTokens(q.question);
  const full = fullContext(conversation.transcript, Math.max(0, budget));
  return {
    q,
    answerKey,
    context: full.text,
    heading: "The conversations so far, oldest first",
    recallMs: 0,
    evidence: { found: q.evidence.filter((id) => full.shown.has(id)).length, total: q.evidence.length },
    shown: { kept: full.shown.size, total: full.total },
  };
}

/** Answers one prepared question (or takes the cached answer), then grades it (likewise). */
async function answerAndGrade(
  conversation: QaConversation,
  condition: string,
  p: Prepared,
  ports: QaPorts,
  cache: QaCache,
): Promise<QaRow> {
  const { q } = p;
  const row: QaRow = {
    conversationId: conversation.id,
    questionId: q.id,
    category: q.category,
    apart: q.apart ?? false,
    abstention: q.abstention ?? false,
    condition,
    answer: null,
    score: null,
    f1: null,
    reason: "",
    evidence: p.evidence,
    ...(p.shown ? { shown: p.shown } : {}),
    usage: { answer: emptyUsage(), judge: emptyUsage() },
    latency: { recall: p.recallMs, answer: 0, judge: 0 },
    cached: { answer: false, grade: false },
  };
  let answered = cache.answer(p.answerKey);
  if (answered) row.cached.answer = true;
  else {
    try {
      const result = await ports.answer.generate(answerMessages(q, p.context, p.heading), {
        temperature: 0,
        maxTokens: answerMaxTokens(q),
        task: "qa.answer",
      });
      answered = {
        type: "answer",
        key: p.answerKey,
        questionId: q.id,
        condition,
        answer: result.text.trim(),
        usage: result.usage,
        latency: { recall: p.recallMs, answer: result.usage.latencyMs },
        evidence: p.evidence,
        ...(p.shown ? { shown: p.shown } : {}),
      } satisfies CachedAnswer;
    } catch (error) {
      return { ...row, error: `answer failed: ${(error as Error).message}` };
    }
    // Outside the try: a cache that cannot be written stops the run rather than hiding as a row.
    await cache.put(answered);
  }
  Object.assign(row, {
    answer: answered.answer,
    evidence: answered.evidence,
    ...(answered.shown ? { shown: answered.shown } : {}),
    usage: { ...row.usage, answer: answered.usage },
    latency: { ...row.latency, ...answered.latency },
    f1: tokenF1(answered.answer, q.answer),
  });
  // A grade depends on the question, the answer and the judge, not on how the answer was reached:
  // the same answer under another condition or k is not graded twice.
  const gradeKey = cacheKey([
    q.id,
    q.question,
    answered.answer,
    q.answer,
    q.rubric ?? null,
    q.abstention ?? false,
    q.rule ?? null,
    ports.judgeId ?? ports.judge.name,
    JUDGE_PROMPT_VERSION,
  ]);
  let graded = cache.grade(gradeKey);
  if (graded) row.cached.grade = true;
  else {
    try {
      graded = await grade(q, answered.answer, gradeKey, condition, ports.judge);
      await cache.put(graded);
    } catch (error) {
      const usage = error instanceof SchemaMismatchError ? (error.details.usage as Usage) : emptyUsage();
      return {
        ...row,
        usage: { ...row.usage, judge: usage },
        error: `grade failed: ${(error as Error).message}`,
      };
    }
  }
  return {
    ...row,
    score: graded.score,
    reason: graded.reason,
    usage: { ...row.usage, judge: graded.usage },
    latency: { ...row.latency, judge: graded.latencyMs },
  };
}

/** The judge's grade: right/wrong, or the mean of a rubric's points. */
async function grade(
  q: QaQuestion,
  answer: string,
  key: string,
  condition: string,
  judge: ChatModel,
): Promise<CachedGrade> {
  const started = performance.now();
  const messages = judgeMessages(q, q.answer, answer);
  const base = { type: "grade" as const, key, questionId: q.id, condition };
  const clip = (s: string) => s.slice(0, 300);
  if (q.rubric?.length) {
    const points = q.rubric.length;
    const result = await generateObject(judge, {
      name: "qa_rubric_grade",
      schema: rubricSchema.refine(
        (g) => g.points.length === points,
        `give exactly ${points} points, one per rubric point`,
      ),
      messages,
      temperature: 0,
    });
    const score = result.object.points.reduce((s, p) => s + p.score, 0) / points;
    return {
      ...base,
      score,
      reason: clip(result.object.reason),
      usage: result.usage,
      latencyMs: performance.now() - started,
    };
  }
  const result = await generateObject(judge, {
    name: "qa_grade",
    schema: verdictSchema,
    messages,
    temperature: 0,
  });
  return {
    ...base,
    score: result.object.correct ? 1 : 0,
    reason: clip(result.object.reason),
    usage: result.usage,
    latencyMs: performance.now() - started,
  };
}

/** At most `size` tasks running at once; the others wait their turn in order. */
class Limit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((go) => this.waiting.push(go));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
