/** Builds the MemoryGraph of an agent's memories from the store, old-to-new in every edge. */
import { type GraphEdge, MemoryGraph } from "../../core/memory-graph.js";
import { RELATIONS } from "../../core/relations.js";
import type { Edge, Memory, Scope } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

const RELATION_SET = new Set<string>(RELATIONS);

/**
 * Relation edges already run older -> newer. Supersedes runs new -> old in the store, so it is
 * turned around ("Superseded"), letting a chain of versions read as a timeline too.
 */
export function toGraphEdge(e: Edge): GraphEdge | null {
  if (RELATION_SET.has(e.type)) return { from: e.from, to: e.to, relation: e.type };
  if (e.type === "Supersedes") return { from: e.to, to: e.from, relation: "Superseded" };
  if (e.type === "FusedInto") return { from: e.from, to: e.to, relation: "FusedInto" };
  return null;
}

export function graphOf(memories: Memory[], edges: Edge[]): MemoryGraph {
  const nodes = memories.map((m, order) => ({ id: m.id, time: m.observedAt, order }));
  return new MemoryGraph(
    nodes,
    edges.map(toGraphEdge).filter((e): e is GraphEdge => e !== null),
  );
}

export interface LoadedGraph {
  graph: MemoryGraph;
  memories: Map<string, Memory>;
}

/**
 * Graphs already built, per store, scope and strategy, with the store's change version they were
 * built at: every reply walks the graph, and rebuilding it from the store each time grows with
 * the agent's whole history. Loaded graphs are never changed, so sharing them is safe.
 */
const built = new WeakMap<MemoryStore, Map<string, { version: string; loaded: Promise<LoadedGraph> }>>();

export async function loadGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<LoadedGraph> {
  const version = await store.changeVersion();
  const key = JSON.stringify([scope.tenant, scope.agent, strategy ?? null]);
  const perStore = built.get(store) ?? new Map();
  built.set(store, perStore);
  const hit = perStore.get(key);
  if (hit && hit.version === version) return hit.loaded;
  const loaded = readGraph(store, scope, strategy);
  perStore.set(key, { version, loaded });
  loaded.catch(() => perStore.delete(key));
  return loaded;
}

async function readGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<LoadedGraph> {
  const memories = await store.listMemories(scope, { status: "any", ...(strategy ? { strategy } : {}) });
  const ids = new Set(memories.map((m) => m.id));
  const edges = (await store.listEdges(scope)).filter((e) => ids.has(e.from) && ids.has(e.to));
  return { graph: graphOf(memories, edges), memories: new Map(memories.map((m) => [m.id, m])) };
}
