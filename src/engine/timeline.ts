/**
 * Walks the edges around a memory: every memory reachable through any edge, in conversation
 * order. Bounded, so a huge connected component cannot stall a request.
 */
import type { Edge, Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";

export async function walkTimeline(
  store: MemoryStore,
  scope: Scope,
  start: string,
  limit = 500,
): Promise<{ memories: Memory[]; edges: Edge[] }> {
  const seen = new Set<string>([start]);
  const edges = new Map<string, Edge>();
  let frontier = [start];
  while (frontier.length > 0 && seen.size < limit) {
    const next: string[] = [];
    for (const edge of await store.listEdges(scope, frontier)) {
      edges.set(edge.id, edge);
      for (const id of [edge.from, edge.to])
        if (!seen.has(id) && seen.size < limit) {
          seen.add(id);
          next.push(id);
        }
    }
    frontier = next;
  }
  const memories = await store.listMemories(scope, { ids: [...seen], status: "any" });
  memories.sort((a, b) =>
    a.observedAt < b.observedAt ? -1 : a.observedAt > b.observedAt ? 1 : a.recordedAt < b.recordedAt ? -1 : 1,
  );
  return { memories, edges: [...edges.values()].filter((e) => seen.has(e.from) && seen.has(e.to)) };
}
