/**
 * `memlane eval mtbench-plus`: each MT-Bench+ conversation is played turn by turn into a fresh
 * in-memory engine per strategy — the partner says the file's line, the agent replies with its
 * strategy (the file has no chatbot lines) — the session is closed (memochat writes down what is
 * still pending, carecall and theanine consolidate), and the final question is asked:
 *   - retrieval (no model needed): the turns the strategy's recall hands back (memochat: the
 *     chosen entries' ranges; the others: their top-k memories' source turns) against the gold
 *     turns, every partner and agent turn of the topics the question's turn-info names: turn
 *     recall (also over the gold partner turns alone: memories drawn from what the partner said
 *     reach no more) and precision (nothing chosen: precision 0), and option F1 between the memories
 *     recalled and the gold memories (those whose source turns are at least half gold; none: 0);
 *   - none of the others: at each new topic's first question (asked with something in memory),
 *     whether recall chose nothing — the right answer, since nothing earlier relates;
 *   - with a chat model: the reply to the final question, asked in a new session a day later,
 *     rated 1-100 by the paper's judge against the gold history; and every call and token the
 *     play cost.
 * The final question comes after the talk's session has closed and been consolidated, for every
 * strategy alike, so each answers it from its memory: the new session's dialogue is the question
 * alone. Every system replies within the paper's dialogue window of 2,048 tokens
 * (MTBENCH_REPLY_WINDOW), the newest turns kept. Standing instructions are off unless asked for
 * (`standing`): the paper has none.
 */
import type { Cognition } from "../../../src/cognition/cognition.js";
import type { RecallHit } from "../../../src/core/recall.js";
import { addUsage, emptyUsage, type Memory, subtractUsage, type Usage } from "../../../src/core/types.js";
import { openMemlane } from "../../../src/engine/open-memlane.js";
import type { ChatModel } from "../../../src/models/chat-model.js";
import type { Embedder } from "../../../src/models/embedder.js";
import type { Strategy } from "../../../src/strategies/strategy.js";
import { MTBENCH_TYPES, type MtbenchConversation, type MtbenchSplit, type MtbenchType } from "./dataset.js";
import { judge } from "./judge.js";

const AGENT = "bot";
const PARTNER = "user";
const START = "2023-08-01T09:00:00.000Z";
/** The final question's session: the day after the talk. */
const FINAL_AT = "2023-08-02T09:00:00.000Z";

/**
 * The paper's window: 2,048 tokens of dialogue for every system, text cut from the oldest end,
 * as characters at four a token; no limit on the number of turns.
 */
export const MTBENCH_REPLY_WINDOW = { turns: 10_000, chars: 2_048 * 4 };

export interface MtbenchPorts {
  embedder: Embedder;
  /** A cognition engine for one strategy's run (a fresh one: offline engines keep caches). */
  cognition: () => Cognition;
  /** The judge's model; absent: no judge score. */
  judge?: ChatModel | null;
  /** Keep standing instructions (default false: the paper's protocol has none). */
  standing?: boolean;
}

/** Where the calls went, per partner turn played. */
export interface CostBreakdown {
  /** Memo writing and other session-time thinking (summaries, pair decisions, links…). */
  writing: Usage;
  /** Recall's own calls (memochat's choice, theanine's refinement). */
  retrieval: Usage;
  /** The replies. */
  reply: Usage;
}

export interface QuestionResult {
  id: string;
  type: MtbenchType;
  split: MtbenchSplit;
  strategy: string;
  goldTurns: number;
  chosenTurns: number;
  /** Memories recalled (memochat: entries chosen). */
  chosen: number;
  turnRecall: number;
  /** Recall of the gold topics' partner turns only (memories made from what the partner said can reach no more). */
  partnerRecall: number;
  turnPrecision: number;
  optionF1: number;
  /** The judge's 1-100, null when unrated or no judge. */
  judge: number | null;
  /** Partner turns played, the final question included. */
  partnerTurns: number;
  cost: CostBreakdown;
  /** Failed operations the play left (a memo write that never fit its schema…). */
  failed: number;
  /** New topics' first questions asked with something in memory, and how many recalled nothing. */
  openings: number;
  openingsNothing: number;
}

/** A new topic's first question, asked when memory already held something. */
export interface Opening {
  query: string;
  /** The strategy's active memories when it was asked. */
  memoryIds: string[];
  /** Recall chose nothing (none of the others): right, since the topic is new. */
  choseNothing: boolean;
}

export interface PlayedConversation {
  result: QuestionResult;
  openings: Opening[];
  /** The strategy's active memories at the end, for tuning. */
  memories: Memory[];
  /** Turn ids of the gold topics. */
  gold: Set<string>;
}

/** Turn recall, turn precision and option F1 of recalled hits against the gold turns. */
export function scoreRecall(
  hits: Pick<RecallHit, "id" | "sourceTurns">[],
  gold: Set<string>,
  memories: Pick<Memory, "id" | "sourceTurns">[],
  partnerGold: Set<string> = gold,
): {
  turnRecall: number;
  partnerRecall: number;
  turnPrecision: number;
  optionF1: number;
  chosenTurns: number;
} {
  const chosen = new Set(hits.flatMap((h) => h.sourceTurns));
  const both = [...chosen].filter((t) => gold.has(t)).length;
  const goldOptions = new Set(
    memories
      .filter(
        (m) =>
          m.sourceTurns.length && m.sourceTurns.filter((t) => gold.has(t)).length * 2 >= m.sourceTurns.length,
      )
      .map((m) => m.id),
  );
  const picked = new Set(hits.map((h) => h.id));
  const agree = [...picked].filter((id) => goldOptions.has(id)).length;
  // No memory made mostly of the gold topics: the question cannot be answered from memory (0).
  const optionF1 = goldOptions.size === 0 ? 0 : (2 * agree) / (picked.size + goldOptions.size);
  const partnerBoth = [...chosen].filter((t) => partnerGold.has(t)).length;
  return {
    turnRecall: gold.size ? both / gold.size : 0,
    partnerRecall: partnerGold.size ? partnerBoth / partnerGold.size : 0,
    turnPrecision: chosen.size ? both / chosen.size : 0,
    optionF1,
    chosenTurns: chosen.size,
  };
}

/** Plays one conversation with one strategy and scores its final question. */
export async function playConversation(
  conv: MtbenchConversation,
  strategy: Strategy,
  ports: MtbenchPorts,
): Promise<PlayedConversation> {
  const cognition = ports.cognition();
  const mem = await openMemlane({
    store: ":memory:",
    embedder: ports.embedder,
    cognition,
    strategy,
    tenant: "eval",
    replyWindow: MTBENCH_REPLY_WINDOW,
    standing: ports.standing ?? false,
  });
  try {
    const scope = mem.scope(AGENT);
    const topicOf = new Map<string, string>();
    let retrieval = emptyUsage();
    // Recall cost inside replies: their REPLY operations count it too.
    let inReplies = emptyUsage();
    const s = await mem.session({ agent: AGENT, partner: PARTNER, at: START, id: `${conv.id}-talk` });
    const openings: Opening[] = [];
    const partnerTurns = new Set<string>();
    for (const t of conv.turns) {
      // A topic's first question relates to nothing said before: the right choice is none.
      const opens = ![...topicOf.values()].includes(t.topic);
      const said = await s.turn(PARTNER, t.text);
      topicOf.set(said.id, t.topic);
      partnerTurns.add(said.id);
      const before = opens ? (await mem.memories(AGENT, { strategy: strategy.name })).map((m) => m.id) : [];
      const { turn, recall } = await s.reply();
      if (turn) topicOf.set(turn.id, t.topic);
      if (recall.usage) inReplies = addUsage(inReplies, recall.usage);
      if (before.length)
        openings.push({ query: t.text, memoryIds: before, choseNothing: recall.hits.length === 0 });
    }
    const topics = new Set(conv.final.topics);
    const gold = new Set([...topicOf].filter(([, topic]) => topics.has(topic)).map(([id]) => id));
    await (await s.close()).done;
    let rating: number | null = null;
    if (ports.judge) {
      // The final question opens a new session, so every strategy answers it from its memory;
      // the reply is judged by a model of its own, never the system under test.
      const asked = await mem.session({
        agent: AGENT,
        partner: PARTNER,
        at: FINAL_AT,
        id: `${conv.id}-final`,
      });
      await asked.turn(PARTNER, conv.final.text);
      const { text, recall: r } = await asked.reply({ record: false });
      if (r.usage) inReplies = addUsage(inReplies, r.usage);
      const turns = await mem.store.listTurns(scope, { sessionId: s.id });
      const history = turns
        .filter((t) => gold.has(t.id))
        .map((t) => ({
          role: t.speaker === AGENT ? ("agent" as const) : ("partner" as const),
          text: t.text,
        }));
      rating = (await judge(ports.judge, { history, question: conv.final.text, reply: text })).rating;
    }
    const partnerGold = new Set([...gold].filter((id) => partnerTurns.has(id)));
    // The strategy's own memories are its options (standing items are listed beside recall, not chosen).
    const memories = await mem.memories(AGENT, { strategy: strategy.name });
    const recall = await mem.recall({ agent: AGENT, about: PARTNER, query: conv.final.text });
    // The final question is a partner turn too: its recall is costed once (the judged reply's, when there is one).
    if (recall.usage && !ports.judge) retrieval = addUsage(retrieval, recall.usage);
    const partnersSaid = conv.turns.length + 1;
    const operations = await mem.store.listOperations(scope);
    let writing = emptyUsage();
    let replies = emptyUsage();
    for (const o of operations) {
      if (o.type === "REPLY") replies = addUsage(replies, o.usage);
      else writing = addUsage(writing, o.usage);
    }
    // A REPLY operation's usage holds its recall's too: count that once, under retrieval.
    replies = subtractUsage(replies, inReplies);
    retrieval = addUsage(retrieval, inReplies);
    const score = scoreRecall(recall.hits, gold, memories, partnerGold);
    return {
      result: {
        id: conv.id,
        type: conv.type,
        split: conv.split,
        strategy: strategy.name,
        goldTurns: gold.size,
        chosen: recall.hits.length,
        ...score,
        judge: rating,
        partnerTurns: partnersSaid,
        cost: { writing, retrieval, reply: replies },
        failed: operations.filter((o) => o.status === "failed").length,
        openings: openings.length,
        openingsNothing: openings.filter((o) => o.choseNothing).length,
      },
      memories,
      gold,
      openings,
    };
  } finally {
    await mem.close();
  }
}

export type MtbenchGroup = MtbenchType | "all";

export interface MtbenchCell {
  questions: number;
  turnRecall: number;
  partnerRecall: number;
  turnPrecision: number;
  optionF1: number;
  /** Mean judge score over rated questions; null when none was rated. */
  judge: number | null;
  rated: number;
  /** Share of new topics' first questions for which recall chose nothing (none of the others). */
  noneRight: number | null;
  openings: number;
}

export interface MtbenchRow {
  strategy: string;
  cells: Record<MtbenchSplit | "all", Record<MtbenchGroup, MtbenchCell>>;
  /** Calls and tokens per partner turn, over every conversation played. */
  perTurn: { calls: number; promptTokens: number; completionTokens: number; byPart: CostBreakdown };
  failed: number;
}

export interface MtbenchReport {
  conversations: number;
  engine: string;
  rows: MtbenchRow[];
  questions: QuestionResult[];
  elapsedMs: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Per-split, per-type means of question results. */
export function aggregate(strategy: string, results: QuestionResult[]): MtbenchRow {
  const cell = (rs: QuestionResult[]): MtbenchCell => {
    const rated = rs.map((r) => r.judge).filter((x): x is number => x !== null);
    const openings = rs.reduce((n, r) => n + r.openings, 0);
    return {
      questions: rs.length,
      turnRecall: mean(rs.map((r) => r.turnRecall)),
      partnerRecall: mean(rs.map((r) => r.partnerRecall)),
      turnPrecision: mean(rs.map((r) => r.turnPrecision)),
      optionF1: mean(rs.map((r) => r.optionF1)),
      judge: rated.length ? mean(rated) : null,
      rated: rated.length,
      noneRight: openings ? rs.reduce((n, r) => n + r.openingsNothing, 0) / openings : null,
      openings,
    };
  };
  const bySplit = (rs: QuestionResult[]) =>
    Object.fromEntries(
      [...MTBENCH_TYPES, "all"].map((g) => [g, cell(g === "all" ? rs : rs.filter((r) => r.type === g))]),
    ) as Record<MtbenchGroup, MtbenchCell>;
  const turns = results.reduce((n, r) => n + r.partnerTurns, 0) || 1;
  const sum = (pick: (c: CostBreakdown) => Usage) =>
    results.reduce((u, r) => addUsage(u, pick(r.cost)), emptyUsage());
  const perTurnOf = (u: Usage): Usage => ({
    calls: u.calls / turns,
    promptTokens: u.promptTokens / turns,
    completionTokens: u.completionTokens / turns,
    latencyMs: u.latencyMs / turns,
  });
  const byPart = {
    writing: perTurnOf(sum((c) => c.writing)),
    retrieval: perTurnOf(sum((c) => c.retrieval)),
    reply: perTurnOf(sum((c) => c.reply)),
  };
  const total = [byPart.writing, byPart.retrieval, byPart.reply].reduce(addUsage, emptyUsage());
  return {
    strategy,
    cells: {
      tune: bySplit(results.filter((r) => r.split === "tune")),
      test: bySplit(results.filter((r) => r.split === "test")),
      all: bySplit(results),
    },
    perTurn: {
      calls: total.calls,
      promptTokens: total.promptTokens,
      completionTokens: total.completionTokens,
      byPart,
    },
    failed: results.reduce((n, r) => n + r.failed, 0),
  };
}

export interface MtbenchProgress {
  done: number;
  total: number;
  label: string;
}

/** Plays every conversation with every strategy and aggregates. */
export async function evaluateMtbench(
  conversations: MtbenchConversation[],
  strategies: Strategy[],
  ports: MtbenchPorts,
  onProgress?: (p: MtbenchProgress) => void,
): Promise<MtbenchReport> {
  const started = performance.now();
  const total = conversations.length * strategies.length;
  let done = 0;
  const questions: QuestionResult[] = [];
  const rows: MtbenchRow[] = [];
  let engine = "";
  for (const strategy of strategies) {
    const results: QuestionResult[] = [];
    for (const conv of conversations) {
      onProgress?.({ done, total, label: `${strategy.name}: ${conv.id}` });
      const played = await playConversation(conv, strategy, ports);
      results.push(played.result);
      done++;
    }
    engine ||= ports.cognition().name;
    questions.push(...results);
    rows.push(aggregate(strategy.name, results));
  }
  onProgress?.({ done, total, label: "done" });
  return {
    conversations: conversations.length,
    engine,
    rows,
    questions,
    elapsedMs: performance.now() - started,
  };
}
