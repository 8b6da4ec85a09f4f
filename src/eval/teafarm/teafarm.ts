/**
 * TeaFarm (Theanine §5): a counterfactual question-answering check of whether a memory system
 * references the past correctly. (1) Ingest a multi-session conversation; (2) give a model the
 * session summaries in order; (3) have it write counterfactual questions about the latest state
 * of events, with the true facts; (4) open a new session and ask them; (5) judge each reply.
 * Needs a chat model; the report is the correct rate, as the paper's Table 3.
 */
import { LlmCognition } from "../../cognition/llm/llm-cognition.js";
import { displayName } from "../../core/ids.js";
import { formatDay } from "../../core/time.js";
import { addUsage, emptyUsage, type Usage } from "../../core/types.js";
import type { Transcript } from "../../engine/formats/transcript.js";
import { type Memlane, openMemlane } from "../../engine/memlane.js";
import type { ChatModel } from "../../models/chat-model.js";
import type { Embedder } from "../../models/embedder.js";
import { generateObject } from "../../models/structured.js";
import type { Strategy } from "../../strategies/strategy.js";
import { judgeMessages, judgeSchema, questionMessages, questionsSchema } from "./prompts.js";

export interface TeafarmOptions {
  transcript: Transcript;
  chat: ChatModel;
  embedder: Embedder;
  strategy: Strategy;
  /** Counterfactual questions to generate (default 5). */
  questions?: number;
  onProgress?: (step: string) => void;
}

export interface TeafarmItem {
  question: string;
  fact: string;
  answer: string;
  reply: string;
  correct: boolean;
  why: string;
}

export interface TeafarmReport {
  agent: string;
  partner: string;
  strategy: string;
  sessions: number;
  items: TeafarmItem[];
  correctRate: number;
  usage: Usage;
}

export async function runTeafarm(options: TeafarmOptions): Promise<TeafarmReport> {
  const { transcript, chat, embedder, strategy } = options;
  const count = options.questions ?? 5;
  const mem = await openMemlane({
    store: ":memory:",
    cognition: new LlmCognition(chat),
    chat,
    embedder,
    strategy,
    tenant: "teafarm",
  });
  let usage = emptyUsage();
  try {
    options.onProgress?.(`ingesting ${transcript.sessions.length} sessions`);
    await mem.ingest(transcript);
    const agent = transcript.agent;
    const last = transcript.sessions.at(-1)!;
    const partner = last.partners[0]!;
    const summaries = await sessionSummaries(mem, agent);
    options.onProgress?.("writing counterfactual questions");
    const generated = await generateObject(chat, {
      name: "counterfactual_questions",
      schema: questionsSchema,
      messages: questionMessages(displayName(agent), displayName(partner), summaries, count),
      temperature: 0.7,
    });
    usage = addUsage(usage, generated.usage);
    const asked = generated.object.questions.slice(0, count);
    const session = await mem.session({
      agent,
      partner,
      at: new Date(Date.parse(last.at) + 7 * 86_400_000).toISOString(),
      id: "teafarm",
    });
    const items: TeafarmItem[] = [];
    for (const [i, q] of asked.entries()) {
      options.onProgress?.(`asking question ${i + 1}/${asked.length}`);
      await session.turn(partner, q.question);
      const { text } = await session.reply();
      const verdict = await generateObject(chat, {
        name: "teafarm_judgement",
        schema: judgeSchema,
        messages: judgeMessages(q.question, q.fact, q.answer, text),
        temperature: 0,
      });
      usage = addUsage(usage, verdict.usage);
      items.push({ ...q, reply: text, correct: verdict.object.correct, why: verdict.object.why });
    }
    const replyOps = await mem.store.listOperations(mem.scope(agent));
    for (const op of replyOps) usage = addUsage(usage, op.usage);
    return {
      agent,
      partner,
      strategy: strategy.name,
      sessions: transcript.sessions.length,
      items,
      correctRate: items.length ? items.filter((x) => x.correct).length / items.length : 0,
      usage,
    };
  } finally {
    await mem.close();
  }
}

/** Each session's memories, oldest session first: what the question writer is shown. */
async function sessionSummaries(mem: Memlane, agent: string): Promise<string> {
  const scope = mem.scope(agent);
  const sessions = await mem.store.listSessions(scope);
  const memories = await mem.store.listMemories(scope, { status: "any" });
  return sessions
    .map((s, i) => {
      const lines = memories.filter((m) => m.sessionId === s.id).map((m) => `- ${m.text}`);
      return `Session ${i + 1} (${formatDay(s.at)}):\n${lines.join("\n") || "- (nothing remembered)"}`;
    })
    .join("\n\n");
}
