/**
 * Each open session's turns so far, held in this process so the per-turn path costs the same at
 * the thousandth turn as at the first: instead of reading the whole session again at every turn,
 * it reads what the store's change log says changed since (new turns, redactions, forgotten
 * turns, by this process or another) and only those rows. A store without a change log, or one
 * whose log no longer reaches back, is read whole. At most SESSIONS_KEPT sessions are held.
 */
import { compositeKey } from "../../core/ids.js";
import type { Scope, Turn } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

/** Sessions whose turns are held; the least recently used leave first. */
export const SESSIONS_KEPT = 256;

interface Held {
  version: string;
  turns: Turn[];
  /** The ids of `turns`, kept beside them so a new turn's id is checked without a pass over the session. */
  ids: Set<string>;
}

function heldOf(version: string, turns: Turn[]): Held {
  return { version, turns, ids: new Set(turns.map((t) => t.id)) };
}

export class DialogueCache {
  private readonly held = new Map<string, Held>();

  constructor(private readonly store: MemoryStore) {}

  /** The session's turns in order, as the store holds them now. */
  async turns(scope: Scope, sessionId: string): Promise<Turn[]> {
    const key = compositeKey(scope.tenant, scope.agent, sessionId);
    const version = await this.store.changeVersion(scope);
    let held = this.held.get(key);
    this.held.delete(key);
    if (held && held.version !== version) held = (await this.catchUp(scope, sessionId, held)) ?? undefined;
    if (!held) held = heldOf(version, await this.store.listTurns(scope, { sessionId }));
    this.held.set(key, held);
    while (this.held.size > SESSIONS_KEPT) this.held.delete(this.held.keys().next().value!);
    return held.turns;
  }

  /**
   * Whether a turn of the session has this id, as of the last `turns()` call for it (false for a
   * session not held). Costs the same at any session length.
   */
  hasTurnId(scope: Scope, sessionId: string, id: string): boolean {
    return this.held.get(compositeKey(scope.tenant, scope.agent, sessionId))?.ids.has(id) ?? false;
  }

  private async catchUp(scope: Scope, sessionId: string, held: Held): Promise<Held | null> {
    const changes = (await this.store.changesSince?.(scope, held.version)) ?? null;
    if (!changes) return null;
    if (changes.turns.length === 0) return { ...held, version: changes.version };
    const rows = await this.store.listTurns(scope, { ids: changes.turns });
    // The usual case, a turn or two added after the held ones and nothing else changed: append,
    // without going over the whole session again.
    const last = held.turns.at(-1);
    const appended = rows.length === changes.turns.length && rows.every((t) => !last || t.index > last.index);
    if (appended) {
      const fresh = rows.filter((t) => t.sessionId === sessionId).sort((a, b) => a.index - b.index);
      for (const t of fresh) held.ids.add(t.id);
      return {
        version: changes.version,
        turns: fresh.length ? [...held.turns, ...fresh] : held.turns,
        ids: held.ids,
      };
    }
    const found = new Map(rows.map((t) => [t.id, t]));
    const changed = new Set(changes.turns);
    // Turns of this session that changed or went are replaced or dropped; new ones join in order.
    const kept = held.turns
      .filter((t) => !changed.has(t.id) || found.has(t.id))
      .map((t) => found.get(t.id) ?? t);
    const known = new Set(kept.map((t) => t.id));
    const fresh = rows.filter((t) => t.sessionId === sessionId && !known.has(t.id));
    const turns = fresh.length ? [...kept, ...fresh].sort((a, b) => a.index - b.index) : kept;
    return heldOf(changes.version, turns);
  }
}
