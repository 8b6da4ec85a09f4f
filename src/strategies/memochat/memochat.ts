/**
 * Strategy `memochat` (Lu et al. 2023, "MemoChat: Tuning LLMs to Use Memos for Consistent
 * Long-Range Open-Domain Conversation"): the agent keeps a memo while it talks.
 *   1. Memo writing (per turn): the session's lines no memo covers yet form the buffer; when it
 *      reaches 10 lines or passes 1,024 words (the paper's code), its lines, numbered from 1, are
 *      split into entries {topic, summary, start, end} (`memochat.write-memo`). Each entry is a
 *      memory (kind "memo", text "topic. summary", the line range and the source turns of that
 *      range); a topic said again gets another entry. What is left in the buffer then is the last
 *      exchange, for continuity; at session end whatever is still pending is written down too.
 *   2. Retrieval by choice (when replying): the partner's utterance and every entry as a numbered
 *      option, with "none of the others" at a seeded random place (`memochat.choose-topics`).
 *   3. Chat with memo: the reply sees the chosen entries with their dialogue lines (capped by a
 *      character budget), the recent buffer and the utterance.
 * Decisions where the paper is silent (docs/strategies.md, "memochat"): the buffer is read from the store
 * (the lines after the last covered turn), so a failed memo write is a failed TURN operation
 * whose lines stay pending until a later turn or `retry` writes them; when the latest turn is the
 * partner's, it stays in the buffer with the reply it waits for; lines carry speakers' names,
 * replies memlane wrote included (the memo records the whole exchange); more than `maxOptions`
 * entries are pre-filtered by the hybrid retriever (a deviation: the paper lists every entry).
 */
import type { Prompt } from "../../cognition/inputs.js";
import { displayName } from "../../core/ids.js";
import { isOwnReply } from "../../core/own-reply.js";
import { currencyMark, currencyOf } from "../../core/past-marks.js";
import { memoryHit, type Recall, type RecallHit } from "../../core/recall.js";
import { fnv1a } from "../../core/text.js";
import { formatDay } from "../../core/time.js";
import { emptyUsage, type Memory, type MemoryFilter, type Turn } from "../../core/types.js";
import { dialogueMessages } from "../kit/compose-reply.js";
import { statementMemory } from "../kit/statement-memory.js";
import { withWarnings } from "../kit/step-warnings.js";
import {
  type RecallContext,
  type ReplyContext,
  type SessionContext,
  type StandingOption,
  type Strategy,
  type StrategyContext,
  standingSetting,
  type TurnContext,
} from "../strategy.js";
import { type BufferLimits, bufferOf, isDue, type Buffer as MemoBuffer, PAPER_LIMITS } from "./buffer.js";
import type { ChooserOptions } from "./offline-chooser.js";
import { writeMemoOffline } from "./offline-writer.js";
import { chooseTopicsStep, type TopicOption } from "./steps/choose-topics.js";
import { type MemoEntry, writeMemoStep } from "./steps/write-memo.js";

export interface MemochatOptions extends StandingOption {
  /** When the buffer is written down (default: 10 lines or more than 1,024 words). */
  limits?: Partial<BufferLimits>;
  /** Most entries listed as options; beyond it the hybrid retriever pre-filters (default 30). */
  maxOptions?: number;
  /** Characters of chosen entries' dialogue lines the reply sees at most (default 6,000). */
  evidenceChars?: number;
  /** Lines of the recent dialogue the reply sees (default 12: a full buffer and the carried exchange). */
  recentLines?: number;
  /** Seed of the none-of-the-others option's place (default "memochat"). */
  seed?: string;
  /** Offline writer: cosine below which an exchange opens a new topic. */
  cut?: number;
  /** Offline chooser: threshold, gate and cap. */
  chooser?: ChooserOptions;
}

export const MEMOCHAT = "memochat";
const KIND = "memo";
/** The `inputs.step` of a memo write's coverage record (an operation citing turns, no memory). */
const COVERED = "memochat.covered";
/** SUMMARIZE operations read back to find the buffer: eight writes (each leaves two). */
const RECENT_RECORDS = 16;

/** A memo entry as a memory carries it in `attributes`. */
export interface MemoAttributes {
  topic: string;
  summary: string;
  /** The entry's range in the buffer it was written from, 1-based and inclusive. */
  lineStart: number;
  lineEnd: number;
  /** Session index of the range's first turn, for ordering entries. */
  turnIndex: number;
  /** Recall only, never stored: the range's dialogue lines ("Name: text"). */
  evidence?: string[];
}

/** The memo attributes of a memory, or null when it is not a memo entry. */
export function memoOf(memory: Memory | undefined): MemoAttributes | null {
  if (!memory || memory.kind !== KIND) return null;
  const a = memory.attributes as Partial<MemoAttributes>;
  return typeof a.topic === "string" && typeof a.lineStart === "number" ? (a as MemoAttributes) : null;
}

/** The place of none-of-the-others among `count` entries (0 = first), seeded by the utterance. */
export function nonePlace(seed: string, query: string, count: number): number {
  return fnv1a(`${seed}\u0000${query}`) % (count + 1);
}

/** The numbered options: every entry, and none-of-the-others at its seeded place. */
export function optionsFor(
  entries: Memory[],
  place: number,
): { options: TopicOption[]; byN: Map<number, Memory> } {
  const options: TopicOption[] = [];
  const byN = new Map<number, Memory>();
  let n = 1;
  for (let i = 0; i <= entries.length; i++) {
    if (i === place) options.push({ n: n++, topic: "NOTO", summary: "none of the others", none: true });
    const m = entries[i];
    if (!m) continue;
    const memo = memoOf(m)!;
    byN.set(n, m);
    options.push({ n: n++, topic: memo.topic, summary: memo.summary, at: m.observedAt });
  }
  return { options, byN };
}

/**
 * The MemoChat strategy: memos written per turn (`onTurn`) and at session end, recall by choosing
 * topics, replies that see the chosen entries' lines.
 * @param options the buffer limits, option cap, evidence budget and offline knobs (see MemochatOptions)
 * @returns a Strategy named "memochat", for `openMemlane({ strategies: [...] })`
 * @example openMemlane({ strategies: [memochatStrategy({ limits: { lines: 6 } })], strategy: "memochat" })
 */
/** How far past its limits the buffer may grow while the model's memo writes fail. */
export const OVERFLOW = 2;

/**
 * The memo's active entries the filter admits. The whole memo is shown at every reply, so it is
 * held in this process and kept current from the change log (retrieval/held-memories.ts); a
 * filter on anything but the subject reads the store.
 */
async function memoEntries(ctx: RecallContext, filter: MemoryFilter): Promise<Memory[]> {
  const { about, strategy, kind, status, ...rest } = filter;
  if (Object.keys(rest).length > 0) return ctx.store.listMemories(ctx.scope, filter);
  const abouts = about === undefined ? null : new Set(Array.isArray(about) ? about : [about]);
  return (await ctx.caches.held(ctx.scope, { strategy: MEMOCHAT, kind: KIND })).filter(
    (m) => !abouts || abouts.has(m.about),
  );
}

/** The options, with their defaults. */
interface MemochatSettings {
  limits: BufferLimits;
  maxOptions: number;
  evidenceChars: number;
  recentLines: number;
  seed: string;
  cut?: MemochatOptions["cut"];
  chooser?: MemochatOptions["chooser"];
}

export function memochatStrategy(options: MemochatOptions = {}): Strategy {
  const settings: MemochatSettings = {
    limits: { ...PAPER_LIMITS, ...options.limits },
    maxOptions: options.maxOptions ?? 30,
    evidenceChars: options.evidenceChars ?? 6000,
    recentLines: options.recentLines ?? 12,
    seed: options.seed ?? MEMOCHAT,
    ...(options.cut === undefined ? {} : { cut: options.cut }),
    ...(options.chooser === undefined ? {} : { chooser: options.chooser }),
  };
  const { evidenceChars, recentLines } = settings;
  return {
    specificationVersion: "v1",
    ...standingSetting(options),
    name: MEMOCHAT,
    description:
      "a memo of topics, summaries and line ranges written as the talk goes; the reply sees the topics it chooses",
    onTurn: (ctx) => writeDue(ctx, settings),
    onSessionEnd: (ctx) => writeRest(ctx, settings),
    recall: (ctx) => recallChosen(ctx, settings),
    compose: (ctx, r) => composeWithMemo(ctx, r, { evidenceChars, recentLines }),
  };
}

/** At session end: whatever is still pending is written down. */
async function writeRest(ctx: SessionContext, settings: MemochatSettings): Promise<void> {
  const { pending } = await bufferNow(ctx, ctx.turns);
  if (pending.length) await writeMemo(ctx, settings, pending);
}

/** This session's memo entries, whatever their status. */
function sessionMemos(ctx: StrategyContext): Promise<Memory[]> {
  return ctx.store.listMemories(ctx.scope, {
    sessionId: ctx.session.id,
    strategy: MEMOCHAT,
    kind: KIND,
    status: "any",
  });
}

/**
 * The turns this session's memo writes recorded as written down: their coverage records hold
 * turn ids only and cite no memory, so a `forget` of the entries leaves them (and the lines are
 * not written down again); forgetting the session erases them with it.
 */
async function writtenTurns(ctx: StrategyContext): Promise<string[]> {
  return (await ctx.store.listOperations(ctx.scope, { sessionId: ctx.session.id }))
    .filter((o) => o.status === "done" && (o.inputs as { step?: unknown } | null)?.step === COVERED)
    .flatMap((o) => ((o.inputs as { turns?: unknown }).turns as string[] | undefined) ?? []);
}

/**
 * The pending buffer: the turns after the last one written down. Every write leaves a coverage
 * record, and writes go in order, so the newest records hold that turn: they are read first,
 * and a turn costs the same late in a long session as early. A session with no recent record
 * (written before records existed) is read whole.
 */
async function bufferNow(ctx: StrategyContext, turns: Turn[]): Promise<MemoBuffer> {
  const recent = await ctx.store.listOperations(ctx.scope, {
    sessionId: ctx.session.id,
    type: "SUMMARIZE",
    status: "done",
    newest: true,
    limit: RECENT_RECORDS,
  });
  const covered = recent
    .filter((o) => (o.inputs as { step?: unknown } | null)?.step === COVERED)
    .flatMap((o) => ((o.inputs as { turns?: unknown }).turns as string[] | undefined) ?? []);
  // (Read whole, too, when none of those turns is still there: a forget took them.)
  const present = new Set(turns.map((t) => t.id));
  if (covered.some((id) => present.has(id))) return bufferOf(turns, [], covered);
  return bufferOf(turns, await sessionMemos(ctx), await writtenTurns(ctx));
}

/**
 * Writes `lines` down as memo entries, staged with a SUMMARIZE operation and a coverage record.
 * `offline`: with the offline writer, whatever the engine's cognition (the overflow fallback).
 */
async function writeMemo(
  ctx: StrategyContext,
  settings: MemochatSettings,
  lines: Turn[],
  offline = false,
): Promise<void> {
  const input = {
    agent: ctx.scope.agent,
    lines: lines.map((t) => ({
      speaker: t.speaker,
      text: t.text,
      // The agent's own replies only: another agent's reply is a partner's words here.
      generated: isOwnReply(t, ctx.scope.agent),
      at: t.at,
    })),
    ...(settings.cut === undefined ? {} : { cut: settings.cut }),
  };
  const result = offline
    ? {
        value: await writeMemoOffline(input.agent, input.lines, ctx.embedder, { cut: input.cut }),
        model: "offline",
        usage: emptyUsage(),
      }
    : await ctx.cognition.run(writeMemoStep, input, { signal: ctx.signal });
  const rows = result.value.map((e) => entryMemory(ctx, e, lines.slice(e.start - 1, e.end)));
  ctx.stage({
    memories: rows,
    operations: [
      ctx.operation({
        type: "SUMMARIZE",
        model: result.model,
        usage: result.usage,
        memoryIds: rows.map((r) => r.id),
        inputs: { step: writeMemoStep.name, turns: lines.map((t) => t.id) },
        outputs: withWarnings({ memos: result.value }, result),
        ...(offline
          ? {
              rationale: `the buffer passed ${OVERFLOW}x its limit after memo writes that failed (recorded as failed TURN operations): written down offline`,
            }
          : {}),
      }),
      ctx.operation({
        type: "SUMMARIZE",
        inputs: { step: COVERED, turns: lines.map((t) => t.id) },
        outputs: { entries: rows.length },
        rationale: "lines written down (a record a forget of the entries leaves behind)",
      }),
    ],
  });
}

function entryMemory(ctx: StrategyContext, e: MemoEntry, range: Turn[]): Memory {
  // About the partner who spoke most in the range (the agent when only it spoke).
  const counts = new Map<string, number>();
  for (const t of range)
    if (t.speaker !== ctx.scope.agent) counts.set(t.speaker, (counts.get(t.speaker) ?? 0) + 1);
  const about = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ctx.session.partners[0] ?? ctx.scope.agent;
  const attributes: MemoAttributes = {
    topic: e.topic,
    summary: e.summary,
    lineStart: e.start,
    lineEnd: e.end,
    turnIndex: range[0]!.index,
  };
  return statementMemory(
    ctx,
    MEMOCHAT,
    {
      about,
      text: `${e.topic}. ${e.summary}`,
      sourceTurns: range.map((t) => t.id),
      observedAt: range.at(-1)!.at,
    },
    { kind: KIND, attributes: { ...attributes } },
  );
}

/** At each turn: the pending lines written down once they reach the limits. */
async function writeDue(ctx: TurnContext, settings: MemochatSettings): Promise<void> {
  const { limits } = settings;
  const { pending } = await bufferNow(ctx, ctx.dialogue);
  // The partner's latest utterance waits in the buffer for its reply: the two belong together.
  const lines = ctx.turn.speaker !== ctx.scope.agent ? pending.filter((t) => t.id !== ctx.turn.id) : pending;
  if (!lines.length || !isDue(lines, limits)) return;
  // Past OVERFLOW times the limits, the model's writes have kept failing (a weak model missing
  // the strict partition): the offline writer takes the buffer, so it stops growing.
  const overflow = { lines: limits.lines * OVERFLOW, words: limits.words * OVERFLOW };
  await writeMemo(ctx, settings, lines, ctx.cognition.name !== "offline" && isDue(lines, overflow));
}

/** The reply's memo entries: the topics the chooser picks for the query, with their lines. */
async function recallChosen(ctx: RecallContext, settings: MemochatSettings): Promise<Recall> {
  const { maxOptions } = settings;
  const filter = { ...ctx.filter, strategy: MEMOCHAT, kind: KIND, status: "active" as const };
  let entries = (await memoEntries(ctx, filter)).filter((m) => memoOf(m));
  if (entries.length === 0) return { strategy: MEMOCHAT, query: ctx.query, hits: [] };
  if (entries.length > maxOptions) {
    // Deviation: a memo too long for one prompt is cut to the entries the hybrid ranks highest.
    const kept = new Set(
      (
        await ctx.retriever.searchMemories(ctx.scope, {
          query: ctx.query,
          k: maxOptions,
          filter,
          now: ctx.now ?? ctx.session?.at,
        })
      ).map((h) => h.id),
    );
    entries = entries.filter((m) => kept.has(m.id));
  }
  entries.sort(
    (a, b) => a.observedAt.localeCompare(b.observedAt) || memoOf(a)!.turnIndex - memoOf(b)!.turnIndex,
  );
  const { options: listed, byN } = optionsFor(entries, nonePlace(settings.seed, ctx.query, entries.length));
  const now = ctx.now ?? ctx.session?.at;
  const result = await ctx.cognition.run(
    chooseTopicsStep,
    {
      query: ctx.query,
      options: listed,
      ...(now ? { at: now } : {}),
      ...(settings.chooser ? { offline: settings.chooser } : {}),
    },
    { signal: ctx.signal },
  );
  const chosen = result.value.chosen.slice(0, ctx.k || undefined).map((n) => ({ n, m: byN.get(n)! }));
  const turns = new Map(
    (
      await ctx.store.listTurns(ctx.scope, { ids: [...new Set(chosen.flatMap(({ m }) => m.sourceTurns))] })
    ).map((t) => [t.id, t]),
  );
  const hits: RecallHit[] = chosen.map(({ n, m }, rank) => {
    const evidence = m.sourceTurns
      .map((id) => turns.get(id))
      .filter((t): t is Turn => t !== undefined)
      .map((t) => `${displayName(t.speaker)}: ${t.text}`);
    const score = result.value.scores?.[n] ?? 1 / (rank + 1);
    return memoryHit({ ...m, attributes: { ...m.attributes, evidence } }, { score, option: n });
  });
  return { strategy: MEMOCHAT, query: ctx.query, hits, usage: result.usage };
}

/** The reply's prompt: the chosen entries with their lines (within the budget), then the recent dialogue. */
export function composeWithMemo(
  ctx: ReplyContext,
  recall: Recall,
  limits: { evidenceChars: number; recentLines: number },
): Prompt {
  const agent = displayName(ctx.scope.agent);
  const partner = displayName(ctx.partner);
  const blocks: string[] = [];
  let left = limits.evidenceChars;
  for (const hit of recall.hits) {
    const memo = memoOf(hit.memory);
    if (!memo) continue;
    const lines: string[] = [];
    for (const line of memo.evidence ?? []) {
      if (left <= 0) break;
      const shown = line.length > left ? `${line.slice(0, left)}…` : line;
      lines.push(shown);
      left -= shown.length;
    }
    // A memo entry a correction replaced is shown as past, like any recalled memory.
    const currency = currencyOf(hit);
    const mark = currency ? `${currencyMark(currency)} ` : "";
    blocks.push(
      `(${blocks.length + 1}) ${mark}Topic: ${memo.topic} (talked about on ${formatDay(hit.observedAt)})\n    Summary: ${memo.summary}${lines.length ? `\n    Lines: ${lines.join(" ### ")}` : ""}`,
    );
  }
  const system = [
    `You are ${agent}, talking with ${partner} on ${formatDay(ctx.session.at)}. Give one concise, coherent and helpful reply to the last utterance.`,
    blocks.length
      ? `Entries of your memo that this utterance draws on (what was said earlier, in your own conversations):\n${blocks.join("\n")}\nUse them where they help; do not claim anything they and the dialogue do not say.`
      : "No entry of your memo relates to this utterance.",
  ].join("\n\n");
  return { system, messages: dialogueMessages(ctx, ctx.dialogue.slice(-limits.recentLines)) };
}
