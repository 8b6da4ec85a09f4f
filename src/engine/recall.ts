/**
 * The one recall pipeline: what `mem.recall` returns and what a reply is grounded in are put
 * together here, so a change to recall is made once. The strategy searches within the hearing;
 * the standing items about the people it is for are added; raw turns the memories missed are
 * added when asked; and the last check drops whatever the hearing does not admit.
 */
import { memoryFilterTest } from "../core/memory-filter.js";
import type { Recall, RecallHit } from "../core/recall.js";
import type { Hearing, MemoryFilter, Scope, Session, StepFailure, Turn } from "../core/types.js";
import { markTemporal, searchTurnsWithHistory, withMissedTurns } from "../retrieval/history-recall.js";
import type { Strategy } from "../strategies/strategy.js";
import { type EngineParts, portsFor } from "./parts.js";
import { heardOnly, isPrivateTurn } from "./privacy/hearing.js";
import { keepsStanding, withStanding } from "./standing/standing-memory.js";
import { notingFailures } from "./step-failures.js";

/** What one recall is for. */
export interface RecallRequest {
  strategy: Strategy;
  /** The text searched (already stripped of what only addresses the agent). */
  query: string;
  /** Who may hear the result: every hit, standing item and raw turn is held to it. */
  hearing: Hearing;
  /**
   * The caller's narrowing (kind, session, meta, dates): the strategy searches only memories that
   * pass it as well as the hearing, and a hit it adds around its search that does not pass is
   * dropped at the end. It never widens the hearing.
   */
  filter?: Omit<MemoryFilter, "hearing" | "status">;
  /** Whose standing instructions come with the result (everyone's when absent). */
  standingFor?: string[];
  k?: number;
  /** The time "now" means for temporal questions (the conversation's, in a replay). */
  now?: string;
  /** A reply's session and the turns it sees. */
  session?: Session;
  dialogue?: Turn[];
  /** Raw turns to add that the memories missed (at most this many). */
  turns?: number;
  signal?: AbortSignal;
}

/** Memories (and around them what the strategy adds) for one request, as the hearing admits them. */
export async function recallMemories(
  parts: EngineParts,
  scope: Scope,
  request: RecallRequest,
): Promise<Recall> {
  const { strategy, query, hearing } = request;
  // The hearing comes last: a caller's filter cannot replace it.
  const filter: MemoryFilter = { ...request.filter, hearing };
  // A recall answers whatever its steps' model does: a step that fails takes its fallback (no
  // memo chosen, the timeline unrefined), and the failure travels with the recall.
  const failures: StepFailure[] = [];
  const cognition = notingFailures(parts.cognition, failures, { fallBack: true });
  const found: Recall = query.trim()
    ? await strategy.recall({
        ...portsFor(parts, scope, request.signal),
        cognition,
        query,
        filter,
        ...(request.k === undefined ? {} : { k: request.k }),
        ...(request.now === undefined ? {} : { now: request.now }),
        ...(request.session ? { session: request.session } : {}),
        ...(request.dialogue ? { dialogue: request.dialogue } : {}),
      })
    : { strategy: strategy.name, query, hits: [] };
  // Standing instructions hold whatever the question was, for every strategy that keeps memory.
  const standing = keepsStanding(parts, strategy)
    ? await withStanding(parts, scope, found, request.standingFor, hearing)
    : found;
  const recall = request.turns
    ? {
        ...standing,
        hits: await withMissedTurns(
          parts.retriever,
          scope,
          standing.hits,
          { query, now: request.now, hearing, isPrivate: isPrivateTurn },
          request.turns,
          standing.standing,
        ),
      }
    : standing;
  const heard = await heardOnly(parts.store, scope, recall, hearing);
  return {
    ...(request.filter ? narrowed(heard, request.filter) : heard),
    scope: hearing.scope,
    ...(failures.length ? { failures } : {}),
  };
}

/**
 * The hits that pass the caller's narrowing: memories a strategy added around its search (a
 * linked memory, a past version) included, whatever their status; raw turns by session and time.
 * Standing items hold whatever the question, and stay.
 */
function narrowed(recall: Recall, filter: NonNullable<RecallRequest["filter"]>): Recall {
  const passes = memoryFilterTest({ ...filter, status: "any" });
  const { sessionId, observedAfter, observedBefore } = filter;
  const keep = (h: RecallHit) =>
    h.kind === "memory"
      ? h.memory !== undefined && passes(h.memory)
      : !h.turn ||
        ((!sessionId || h.turn.sessionId === sessionId) &&
          (observedAfter === undefined || h.turn.at >= observedAfter) &&
          (observedBefore === undefined || h.turn.at < observedBefore));
  return { ...recall, hits: recall.hits.filter(keep) };
}

/** Raw turns instead of memories: the k turns the hearing admits, with temporal intent marked. */
export async function recallTurns(
  parts: EngineParts,
  scope: Scope,
  request: { query: string; originalQuery: string; hearing: Hearing; k: number; now?: string },
): Promise<Recall> {
  const { hits, intent } = await searchTurnsWithHistory(parts.retriever, scope, {
    query: request.query,
    k: request.k,
    now: request.now,
    hearing: request.hearing,
    isPrivate: isPrivateTurn,
  });
  return markTemporal(
    { strategy: "turns", query: request.originalQuery, hits, scope: request.hearing.scope },
    intent,
  );
}
