/**
 * Memory graphs loaded from the store, cached per store, scope and strategy with the scope's
 * change version they were built at: every theanine reply walks the graph, and rebuilding it from
 * the store each time grows with the agent's whole history. Loaded graphs are never changed, so
 * sharing them is safe.
 */
import { graphOf } from "../core/graph-of.js";
import type { MemoryGraph } from "../core/memory-graph.js";
import type { Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";

export interface LoadedGraph {
  graph: MemoryGraph;
  memories: Map<string, Memory>;
}

const built = new WeakMap<MemoryStore, Map<string, { version: string; loaded: Promise<LoadedGraph> }>>();

export async function loadGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<LoadedGraph> {
  const version = await store.changeVersion(scope);
  const key = JSON.stringify([scope.tenant, scope.agent, strategy ?? null]);
  const perStore = built.get(store) ?? new Map();
  built.set(store, perStore);
  const hit = perStore.get(key);
  if (hit && hit.version === version) return hit.loaded;
  const loaded = readGraph(store, scope, strategy);
  perStore.set(key, { version, loaded });
  loaded.catch(() => {
    if (perStore.get(key)?.loaded === loaded) perStore.delete(key);
  });
  return loaded;
}

async function readGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<LoadedGraph> {
  const memories = await store.listMemories(scope, { status: "any", ...(strategy ? { strategy } : {}) });
  const ids = new Set(memories.map((m) => m.id));
  const edges = (await store.listEdges(scope)).filter((e) => ids.has(e.from) && ids.has(e.to));
  return { graph: graphOf(memories, edges), memories: new Map(memories.map((m) => [m.id, m])) };
}
