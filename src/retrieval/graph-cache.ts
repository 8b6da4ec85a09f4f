/**
 * Memory graphs loaded from the store, cached per store, scope and strategy with the scope's
 * change version they hold: every theanine reply walks the graph, and reading it from the store
 * each time grows with the agent's whole history. After a write, the graph catches up from the
 * store's change log (only the memories and edges that changed are read) and is made anew from
 * what is held in memory; it is read whole again only when the log cannot serve it. A loaded
 * graph is never changed once handed out, so sharing it is safe. At most GRAPHS_KEPT graphs per
 * store are held, the least recently used leaving first.
 */
import { graphOf } from "../core/graph-of.js";
import type { MemoryGraph } from "../core/memory-graph.js";
import type { Edge, Memory, Scope } from "../core/types.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";

export interface LoadedGraph {
  graph: MemoryGraph;
  memories: Map<string, Memory>;
}

/** What a cache entry keeps beside the graph: every edge read, to make the next graph from. */
interface Held extends LoadedGraph {
  edges: Map<string, Edge>;
}

/** Graphs held per store; a process serving many agents keeps only the recently used ones. */
export const GRAPHS_KEPT = 64;

const built = new WeakMap<MemoryStore, Map<string, { version: string; loaded: Promise<Held> }>>();

export async function loadGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<LoadedGraph> {
  const version = await store.changeVersion(scope);
  const key = JSON.stringify([scope.tenant, scope.agent, strategy ?? null]);
  const perStore = built.get(store) ?? new Map<string, { version: string; loaded: Promise<Held> }>();
  built.set(store, perStore);
  const hit = perStore.get(key);
  let loaded: Promise<Held>;
  if (hit && hit.version === version) loaded = hit.loaded;
  else {
    const since = hit?.version;
    loaded = hit
      ? hit.loaded.then(
          (held) => catchUp(store, scope, strategy, held, since!),
          () => readGraph(store, scope, strategy),
        )
      : readGraph(store, scope, strategy);
    loaded.catch(() => {
      if (perStore.get(key)?.loaded === loaded) perStore.delete(key);
    });
  }
  // Most recently used last; the oldest leave first.
  perStore.delete(key);
  perStore.set(key, { version, loaded });
  while (perStore.size > GRAPHS_KEPT) perStore.delete(perStore.keys().next().value!);
  return loaded;
}

async function readGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<Held> {
  const memories = await store.listMemories(scope, { status: "any", ...(strategy ? { strategy } : {}) });
  const edges = await store.listEdges(scope);
  return made(new Map(memories.map((m) => [m.id, m])), new Map(edges.map((e) => [e.id, e])));
}

/** Brings a held graph up to the changes since `since`, as a new graph; reads it whole when the log cannot. */
async function catchUp(
  store: MemoryStore,
  scope: Scope,
  strategy: string | undefined,
  held: Held,
  since: string,
): Promise<Held> {
  const changes: ScopeChanges | null = (await store.changesSince?.(scope, since)) ?? null;
  if (!changes) return readGraph(store, scope, strategy);
  const ids = [...new Set(changes.memories)];
  const ends = [...new Set(changes.edges.flatMap((e) => [e.from, e.to]))];
  const [rows, edgeRows] = await Promise.all([
    ids.length ? store.listMemories(scope, { ids, status: "any", ...(strategy ? { strategy } : {}) }) : [],
    ends.length ? store.listEdges(scope, ends) : [],
  ]);
  const memories = new Map(held.memories);
  const found = new Map(rows.map((m) => [m.id, m]));
  for (const id of ids) {
    const m = found.get(id);
    if (m) memories.set(id, m);
    else memories.delete(id);
  }
  const edges = new Map(held.edges);
  const present = new Map(edgeRows.map((e) => [e.id, e]));
  for (const { id } of changes.edges) {
    const e = present.get(id);
    if (e) edges.set(id, e);
    else edges.delete(id);
  }
  return made(memories, edges);
}

/** The graph as a fresh read would make it: memories and edges in the store's order. */
function made(memories: Map<string, Memory>, edges: Map<string, Edge>): Held {
  const ordered = [...memories.values()].sort(
    (a, b) => cmp(a.observedAt, b.observedAt) || cmp(a.recordedAt, b.recordedAt) || cmp(a.id, b.id),
  );
  const linked = [...edges.values()]
    .filter((e) => memories.has(e.from) && memories.has(e.to))
    .sort((a, b) => cmp(a.recordedAt, b.recordedAt) || cmp(a.id, b.id));
  return { graph: graphOf(ordered, linked), memories: new Map(ordered.map((m) => [m.id, m])), edges };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
