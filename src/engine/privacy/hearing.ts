/**
 * Private by default: whom a recall or a reply is for, and the last check that nothing else
 * reaches them. A reply in a session is for the partners present; a recall outside one names its
 * partner (`about`) or asks for the agent's whole memory (`scope: "agent"`, EMMA's default, where
 * cross-partner recall is the point). Strategies search with the hearing in their filter, so the
 * k they return are k the partner may hear; `heardOnly` then drops whatever a strategy added
 * around its search (a timeline's steps, a linked memory, an earlier version, a raw turn) that
 * the hearing does not admit.
 */
import { readPrivate } from "../../cognition/offline/private-statement.js";
import { hearingTest, presentPartners, turnHearingTest } from "../../core/audience.js";
import { InvalidInputError } from "../../core/errors.js";
import type { Recall, RecallHit } from "../../core/recall.js";
import type { Hearing, Memory, Scope, Session, Turn } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";
import type { Strategy } from "../../strategies/strategy.js";
import type { RecallScope } from "../api.js";

/** The scope a strategy recalls in when the caller names none. */
export function defaultRecallScope(strategy: Strategy): RecallScope {
  return strategy.recallScope ?? "partner";
}

/** The session meta key that keeps the recall scope a session was opened with. */
export const SESSION_SCOPE_KEY = "recallScope";

/** A reply's hearing: the partners present, in the session's scope (or the strategy's). */
export function sessionHearing(session: Session, strategy: Strategy): Hearing {
  const chosen = session.meta[SESSION_SCOPE_KEY];
  const scope = chosen === "agent" || chosen === "partner" ? chosen : defaultRecallScope(strategy);
  return { scope, partners: presentPartners(session) };
}

/**
 * A recall's hearing outside a session. `about` is the partner it is for; under `partner` scope
 * it is required.
 * @throws {InvalidInputError} partner scope without `about`
 */
export function recallHearing(scope: RecallScope, about: string | undefined): Hearing {
  if (scope === "partner" && about === undefined)
    throw new InvalidInputError(
      'A recall is for one partner by default: name them with `about`, or ask for the agent\'s whole memory with scope: "agent" (private memories stay out)',
      { field: "about" },
    );
  return { scope, partners: about === undefined ? [] : [about] };
}

/** Readings of turns held in this process: the turn index keeps the same turn objects. */
const readings = new WeakMap<object, boolean>();

/**
 * Whether a raw turn is private by itself (the offline detector's reading), read once per turn
 * object: a turn search asks about hundreds of candidates, most of them again at the next query.
 */
export function isPrivateTurn(turn: Pick<Turn, "text">): boolean {
  let held = readings.get(turn);
  if (held === undefined) {
    held = readPrivate(turn.text).reasons.length > 0;
    readings.set(turn, held);
  }
  return held;
}

/**
 * A test of raw turns against a hearing, reading the sessions they were said in (a recall's turn
 * hits are few; the turn search itself asks its index, which holds every session's partners).
 */
export async function turnAdmission(
  store: MemoryStore,
  scope: Scope,
  hearing: Hearing,
  sessionIds: Iterable<string>,
): Promise<(turn: Turn) => boolean> {
  const partners = new Map<string, string[]>();
  if (hearing.scope === "partner")
    for (const id of new Set(sessionIds)) {
      const session = await store.getSession(scope, id);
      if (session) partners.set(id, session.partners);
    }
  return turnHearingTest(hearing, (id) => partners.get(id), isPrivateTurn);
}

/**
 * The recall with everything the hearing does not admit taken out: hits, standing items, the
 * versions in a hit's chain and the steps of a timeline.
 */
export async function heardOnly(
  store: MemoryStore,
  scope: Scope,
  recall: Recall,
  hearing: Hearing,
): Promise<Recall> {
  const hears = hearingTest(hearing);
  const shown = [...recall.hits, ...(recall.standing ?? [])];
  const mentioned = new Set<string>();
  for (const h of shown) for (const v of h.chain ?? []) if (!h.memory || v.id !== h.id) mentioned.add(v.id);
  for (const t of recall.timelines ?? []) for (const e of t.entries) mentioned.add(e.id);
  for (const h of shown) if (h.kind === "memory" && !h.memory) mentioned.add(h.id);
  const memories = new Map<string, Memory>();
  if (mentioned.size > 0)
    for (const m of await store.listMemories(scope, { ids: [...mentioned], status: "any" }))
      memories.set(m.id, m);
  const heardMemory = (id: string, memory?: Memory) => {
    const m = memory ?? memories.get(id);
    return m !== undefined && hears(m);
  };
  const turnHits = shown.filter((h) => h.kind === "turn");
  const turnsAdmitted =
    turnHits.length > 0
      ? await turnAdmission(
          store,
          scope,
          hearing,
          turnHits.map((h) => h.sessionId ?? ""),
        )
      : null;
  const keep = (h: RecallHit): boolean =>
    h.kind === "turn" ? h.turn !== undefined && turnsAdmitted!(h.turn) : heardMemory(h.id, h.memory);
  const trimmed = (h: RecallHit): RecallHit =>
    h.chain ? { ...h, chain: h.chain.filter((v) => v.id === h.id || heardMemory(v.id)) } : h;
  const out: Recall = { ...recall, hits: recall.hits.filter(keep).map(trimmed) };
  if (recall.standing) out.standing = recall.standing.filter(keep);
  if (recall.timelines)
    out.timelines = recall.timelines
      .filter((t) => heardMemory(t.through, recall.hits.find((h) => h.id === t.through)?.memory))
      .map((t) => {
        const entries = t.entries.filter((e) => heardMemory(e.id));
        if (entries.length === t.entries.length) return t;
        // A refinement was written from every step, the ones taken out included.
        const { refined: _, ...rest } = t;
        return { ...rest, entries };
      })
      .filter((t) => t.entries.length > 0);
  return out;
}
