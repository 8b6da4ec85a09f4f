/**
 * One strategy's active memories of one kind, held per scope in this process (a scope cache,
 * scope-cache.ts, owned by the engine) and kept current from the store's change log: the memories that changed since are read again (a handful after a
 * turn), never the whole set. MemoChat's memo and the standing items are shown whole at every
 * reply; reading them from the store each time made a reply late in a long session cost more than
 * an early one. A store without a change log, or one whose log no longer reaches back, is read
 * whole again.
 */
import { byStoreOrder } from "../core/memory-order.js";
import type { Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import { ScopeCache } from "./scope-cache.js";

/** Which memories: a strategy's, of one kind, active. */
export interface HeldFilter {
  strategy: string;
  kind: string;
}

/** Scopes and filters held per store; the least recently used leave first. */
export const HELD_KEPT = 1024;

/** A strategy's active memories of one kind per scope, kept current from the change log. */
export class HeldMemories {
  private readonly cache: ScopeCache<Map<string, Memory>>;

  constructor(store: MemoryStore) {
    this.cache = new ScopeCache<Map<string, Memory>>(store, {
      kind: {
        name: "held memories",
        build: async (scope, [strategy, kind]) =>
          new Map(
            (await store.listMemories(scope, { strategy: strategy!, kind: kind!, status: "active" })).map(
              (m) => [m.id, m],
            ),
          ),
        catchUp: (byId, scope, changes, [strategy, kind]) =>
          caughtUp(store, scope, { strategy: strategy!, kind: kind! }, byId, changes.memories),
      },
      bound: { entries: HELD_KEPT },
    });
  }

  /** The active memories the filter names, in the stores' order: observed, then recorded, then id. */
  async get(scope: Scope, filter: HeldFilter): Promise<Memory[]> {
    return [...(await this.cache.get(scope, filter.strategy, filter.kind)).values()].sort(byStoreOrder);
  }
}

/** The held set with the changed memories read again: gone or no longer of the filter, out. */
async function caughtUp(
  store: MemoryStore,
  scope: Scope,
  filter: HeldFilter,
  held: Map<string, Memory>,
  changed: string[],
): Promise<Map<string, Memory>> {
  if (changed.length === 0) return held;
  const rows = new Map(
    (await store.listMemories(scope, { ids: changed, status: "any" })).map((m) => [m.id, m]),
  );
  const byId = new Map(held);
  for (const id of changed) {
    const m = rows.get(id);
    // Gone (forgotten), no longer active, or not of this filter: out; otherwise in, as it is now.
    if (m && m.status === "active" && m.strategy === filter.strategy && m.kind === filter.kind)
      byId.set(id, m);
    else byId.delete(id);
  }
  return byId;
}
