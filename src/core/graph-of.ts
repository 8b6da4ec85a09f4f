/** The MemoryGraph of stored memories and edges, old-to-new in every edge. */
import { type GraphEdge, type GraphNode, MemoryGraph } from "./memory-graph.js";
import { RELATIONS } from "./relations.js";
import type { Edge, Memory } from "./types.js";

const RELATION_SET = new Set<string>(RELATIONS);

/**
 * Relation edges (and EMMA's links) already run older -> newer. Supersedes runs new -> old in the
 * store, so it is turned around ("Superseded"), letting a chain of versions read as a timeline too.
 */
export function toGraphEdge(e: Edge): GraphEdge | null {
  if (RELATION_SET.has(e.type) || e.type === "Link") return { from: e.from, to: e.to, relation: e.type };
  if (e.type === "Supersedes") return { from: e.to, to: e.from, relation: "Superseded" };
  if (e.type === "FusedInto") return { from: e.from, to: e.to, relation: "FusedInto" };
  return null;
}

/** `graphOf`, built with pauses for other callers (a large scope's graph). */
export async function graphOfInSlices(memories: Memory[], edges: Iterable<Edge>): Promise<MemoryGraph> {
  const graphEdges = function* () {
    for (const e of edges) {
      const g = toGraphEdge(e);
      if (g) yield g;
    }
  };
  return MemoryGraph.inSlices(nodesOf(memories), graphEdges());
}

export function graphOf(memories: Memory[], edges: Edge[]): MemoryGraph {
  return new MemoryGraph(
    nodesOf(memories),
    edges.map(toGraphEdge).filter((e): e is GraphEdge => e !== null),
  );
}

/** Memories as graph nodes, each ordered by its place in the list (the store's order). */
function nodesOf(memories: Memory[]): GraphNode[] {
  return memories.map((m, order) => ({ id: m.id, time: m.observedAt, order }));
}
