/**
 * One strategy's active memories of one kind, held per scope in this process and kept current
 * from the store's change log: the memories that changed since are read again (a handful after a
 * turn), never the whole set. MemoChat's memo and the standing items are shown whole at every
 * reply; reading them from the store each time made a reply late in a long session cost more than
 * an early one. A store without a change log, or one whose log no longer reaches back, is read
 * whole again.
 */
import { compositeKey } from "../core/ids.js";
import { byStoreOrder } from "../core/memory-order.js";
import type { Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";

/** Which memories: a strategy's, of one kind, active. */
export interface HeldFilter {
  strategy: string;
  kind: string;
}

/** Scopes and filters held per store; the least recently used leave first. */
export const HELD_KEPT = 1024;

interface Held {
  version: string;
  byId: Map<string, Memory>;
}

const held = new WeakMap<MemoryStore, Map<string, Held>>();

/** The active memories the filter names, in the stores' order: observed, then recorded, then id. */
export async function heldMemories(store: MemoryStore, scope: Scope, filter: HeldFilter): Promise<Memory[]> {
  const key = compositeKey(scope.tenant, scope.agent, filter.strategy, filter.kind);
  const perStore = held.get(store) ?? new Map<string, Held>();
  held.set(store, perStore);
  const version = await store.changeVersion(scope);
  let hit = perStore.get(key);
  perStore.delete(key);
  if (hit && hit.version !== version) hit = (await catchUp(store, scope, filter, hit)) ?? undefined;
  if (!hit) {
    const rows = await store.listMemories(scope, { ...filter, status: "active" });
    hit = { version, byId: new Map(rows.map((m) => [m.id, m])) };
  }
  perStore.set(key, hit);
  while (perStore.size > HELD_KEPT) perStore.delete(perStore.keys().next().value!);
  return [...hit.byId.values()].sort(byStoreOrder);
}

/** The held set brought up to date from the change log, or null when the log cannot say. */
async function catchUp(
  store: MemoryStore,
  scope: Scope,
  filter: HeldFilter,
  hit: Held,
): Promise<Held | null> {
  const changes = (await store.changesSince?.(scope, hit.version)) ?? null;
  if (!changes) return null;
  if (changes.memories.length === 0) return { ...hit, version: changes.version };
  const rows = new Map(
    (await store.listMemories(scope, { ids: changes.memories, status: "any" })).map((m) => [m.id, m]),
  );
  const byId = new Map(hit.byId);
  for (const id of changes.memories) {
    const m = rows.get(id);
    // Gone (forgotten), no longer active, or not of this filter: out; otherwise in, as it is now.
    if (m && m.status === "active" && m.strategy === filter.strategy && m.kind === filter.kind)
      byId.set(id, m);
    else byId.delete(id);
  }
  return { version: changes.version, byId };
}
