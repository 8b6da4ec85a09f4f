/**
 * Every memory is written with who may hear it (core/audience.ts), for every strategy and both
 * engines, here where all writes pass (apply-staged.ts): its audience is the partners of the
 * sessions its source turns were said in, and it is private — kept with the partners who said it
 * — when a strategy's model flagged it (`attributes.private: true`), when one of its source turns
 * is private (the offline detector, cognition/offline/private-statement.ts, with a bare request
 * such as "please keep that between us" reaching the same speaker's turns beside it), or when its
 * own text is sensitive by kind. The request itself never stays in the memory's text.
 */

import { readPrivate, withoutPrivacyRequest } from "../../cognition/offline/private-statement.js";
import { type AudienceAttributes, audienceOf } from "../../core/audience.js";
import type { Memory, Scope, Session, Turn } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

/** How far, in turns of the same session, a bare request reaches its speaker's statements. */
const REQUEST_REACH = 2;

export async function stampAudience(
  store: MemoryStore,
  scope: Scope,
  batch: { memories: Memory[]; turns: Turn[]; sessions: Session[] },
): Promise<void> {
  const fresh = batch.memories.filter((m) => audienceOf(m) === undefined);
  if (fresh.length === 0) return;
  const turns = new Map(batch.turns.map((t) => [t.id, t]));
  const wanted = [...new Set(fresh.flatMap((m) => m.sourceTurns))].filter((id) => !turns.has(id));
  if (wanted.length > 0) for (const t of await store.listTurns(scope, { ids: wanted })) turns.set(t.id, t);
  const sessions = new Map(batch.sessions.map((s) => [s.id, s]));
  const sessionIds = new Set<string>();
  for (const m of fresh) {
    if (m.sessionId) sessionIds.add(m.sessionId);
    for (const id of m.sourceTurns) {
      const t = turns.get(id);
      if (t) sessionIds.add(t.sessionId);
    }
  }
  for (const id of sessionIds)
    if (!sessions.has(id)) {
      const s = await store.getSession(scope, id);
      if (s) sessions.set(id, s);
    }
  const privateTurn = await privateTurns(store, scope, [...turns.values()], batch.turns);
  for (const m of fresh) {
    const said = m.sourceTurns.map((id) => turns.get(id)).filter((t): t is Turn => t !== undefined);
    const heardIn = new Set(said.map((t) => t.sessionId));
    if (heardIn.size === 0 && m.sessionId) heardIn.add(m.sessionId);
    const audience = [...new Set([...heardIn].flatMap((id) => sessions.get(id)?.partners ?? []))].sort();
    const attributes: AudienceAttributes & Record<string, unknown> = { ...m.attributes, audience };
    const byPartners = said.filter((t) => t.speaker !== scope.agent);
    const kept = byPartners.filter((t) => privateTurn.has(t.id));
    const own = readPrivate(m.text).reasons.filter((r) => r !== "request");
    const flagged = m.attributes.private === true;
    const why = kept.length > 0 ? privateTurn.get(kept[0]!.id) : (own[0] ?? (flagged ? "model" : undefined));
    if (why) {
      const speakers = (kept.length > 0 ? kept : byPartners).map((t) => t.speaker);
      const to = [...new Set(speakers.length > 0 ? speakers : audience.length > 0 ? audience : [m.about])];
      attributes.privateTo = to.sort();
      attributes.privateWhy = why;
      m.text = withoutPrivacyRequest(m.text);
    }
    delete attributes.private;
    m.attributes = attributes;
  }
}

/**
 * The private turns among `turns`, each with its first reason. A turn that is only a request
 * makes private the same speaker's turns up to REQUEST_REACH places before and after it.
 */
async function privateTurns(
  store: MemoryStore,
  scope: Scope,
  turns: Turn[],
  unstored: Turn[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // Each turn is read once, a cited one and its neighbours alike.
  const readings = new Map<string, ReturnType<typeof readPrivate>>();
  const readingOf = (t: Turn) => {
    let r = readings.get(t.id);
    if (!r) {
      r = readPrivate(t.text);
      readings.set(t.id, r);
    }
    return r;
  };
  const bySession = new Map<string, Turn[]>();
  for (const t of turns) {
    if (t.speaker === scope.agent) continue;
    const reading = readingOf(t);
    if (reading.reasons.length > 0 && !reading.requestOnly) out.set(t.id, reading.reasons[0]!);
    const list = bySession.get(t.sessionId);
    if (list) list.push(t);
    else bySession.set(t.sessionId, [t]);
  }
  const justSaid = new Set(unstored.map((t) => t.id));
  for (const [sessionId, cited] of bySession) {
    const lo = Math.min(...cited.map((t) => t.index)) - REQUEST_REACH;
    const hi = Math.max(...cited.map((t) => t.index)) + REQUEST_REACH;
    const around = new Map<number, Turn>();
    for (const t of unstored) if (t.sessionId === sessionId) around.set(t.index, t);
    // A turn just said (the per-turn path) is read with what it stages only: its stored
    // neighbours would cost a read of the whole session at every turn.
    const stored = cited.some((t) => !justSaid.has(t.id));
    if (stored)
      for (const t of await store.listTurns(scope, { sessionId }))
        if (t.index >= lo && t.index <= hi) around.set(t.index, t);
    const requests = [...around.values()].filter(
      (t) => t.speaker !== scope.agent && readingOf(t).requestOnly,
    );
    for (const t of cited)
      if (requests.some((r) => r.speaker === t.speaker && Math.abs(r.index - t.index) <= REQUEST_REACH))
        out.set(t.id, out.get(t.id) ?? "request");
  }
  return out;
}
