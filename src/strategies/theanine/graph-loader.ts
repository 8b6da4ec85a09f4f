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

export async function loadGraph(
  store: MemoryStore,
  scope: Scope,
  strategy?: string,
): Promise<{ graph: MemoryGraph; memories: Map<string, Memory> }> {
  const memories = await store.listMemories(scope, { status: "any", ...(strategy ? { strategy } : {}) });
  const ids = new Set(memories.map((m) => m.id));
  const edges = (await store.listEdges(scope)).filter((e) => ids.has(e.from) && ids.has(e.to));
  return { graph: graphOf(memories, edges), memories: new Map(memories.map((m) => [m.id, m])) };
}
