/**
 * Each open session's turns so far, held in this process (a scope cache, retrieval/scope-cache.ts)
 * so the per-turn path costs the same at the thousandth turn as at the first: instead of reading
 * the whole session again at every turn, it reads what the store's change log says changed since
 * (new turns, redactions, forgotten turns, by this process or another) and only those rows. A store without a change log, or one
 * whose log no longer reaches back, is read whole. At most SESSIONS_KEPT sessions are held.
 */
import type { Scope, Turn } from "../../core/types.js";
import { ScopeCache } from "../../retrieval/scope-cache.js";
import type { MemoryStore, ScopeChanges } from "../../store/memory-store.js";

/** Sessions whose turns are held; the least recently used leave first. */
export const SESSIONS_KEPT = 256;

interface Held {
  turns: Turn[];
  /** The ids of `turns`, kept beside them so a new turn's id is checked without a pass over the session. */
  ids: Set<string>;
}

function heldOf(turns: Turn[]): Held {
  return { turns, ids: new Set(turns.map((t) => t.id)) };
}

export class DialogueCache {
  private readonly cache: ScopeCache<Held>;

  constructor(store: MemoryStore) {
    this.cache = new ScopeCache<Held>(store, {
      kind: {
        name: "turns",
        build: async (scope, [sessionId]) => heldOf(await store.listTurns(scope, { sessionId: sessionId! })),
        catchUp: (held, scope, changes, [sessionId]) => caughtUp(store, scope, sessionId!, held, changes),
      },
      bound: { entries: SESSIONS_KEPT },
    });
  }

  /** The session's turns in order, as the store holds them now. */
  async turns(scope: Scope, sessionId: string): Promise<Turn[]> {
    return (await this.cache.get(scope, sessionId)).turns;
  }

  /**
   * Whether a turn of the session has this id, as of the last `turns()` call for it (false for a
   * session not held). Costs the same at any session length.
   */
  hasTurnId(scope: Scope, sessionId: string, id: string): boolean {
    return this.cache.peek(scope, sessionId)?.ids.has(id) ?? false;
  }
}

/** The held turns with the changes applied (only the changed rows are read). */
async function caughtUp(
  store: MemoryStore,
  scope: Scope,
  sessionId: string,
  held: Held,
  changes: ScopeChanges,
): Promise<Held> {
  if (changes.turns.length === 0) return held;
  const rows = await store.listTurns(scope, { ids: changes.turns });
  // The usual case, a turn or two added after the held ones and nothing else changed: append,
  // without going over the whole session again.
  const last = held.turns.at(-1);
  const appended = rows.length === changes.turns.length && rows.every((t) => !last || t.index > last.index);
  if (appended) {
    const fresh = rows.filter((t) => t.sessionId === sessionId).sort((a, b) => a.index - b.index);
    if (fresh.length === 0) return held;
    for (const t of fresh) held.ids.add(t.id);
    return { turns: [...held.turns, ...fresh], ids: held.ids };
  }
  const found = new Map(rows.map((t) => [t.id, t]));
  const changed = new Set(changes.turns);
  // Turns of this session that changed or went are replaced or dropped; new ones join in order.
  const kept = held.turns
    .filter((t) => !changed.has(t.id) || found.has(t.id))
    .map((t) => found.get(t.id) ?? t);
  const known = new Set(kept.map((t) => t.id));
  const fresh = rows.filter((t) => t.sessionId === sessionId && !known.has(t.id));
  return heldOf(fresh.length ? [...kept, ...fresh].sort((a, b) => a.index - b.index) : kept);
}
