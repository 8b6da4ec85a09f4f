/** The MemoryGraph of stored memories and edges, old-to-new in every edge. */
import { type GraphEdge, type GraphNode, MemoryGraph } from "./memory-graph.js";
import { RELATIONS } from "./relations.js";
import type { Edge, Memory } from "./types.js";

const RELATION_SET = new Set<string>(RELATIONS);

/**
 * The step from an older version to a newer one that a version edge stands for, or null for any
 * other edge. Supersedes runs new -> old in the store (the new memory supersedes the old);
 * FusedInto runs old -> fused.
 */
export function versionStep(e: Pick<Edge, "type" | "from" | "to">): { older: string; newer: string } | null {
  if (e.type === "Supersedes") return { older: e.to, newer: e.from };
  if (e.type === "FusedInto") return { older: e.from, newer: e.to };
  return null;
}

/**
 * Relation edges (and EMMA's links) already run older -> newer. Supersedes runs new -> old in the
 * store, so it is turned around ("Superseded"), letting a chain of versions read as a timeline too.
 */
export function toGraphEdge(e: Edge): GraphEdge | null {
  if (RELATION_SET.has(e.type) || e.type === "Link") return { from: e.from, to: e.to, relation: e.type };
  const step = versionStep(e);
  if (!step) return null;
  return { from: step.older, to: step.newer, relation: e.type === "Supersedes" ? "Superseded" : "FusedInto" };
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
