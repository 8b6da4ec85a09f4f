/**
 * The timeline of a memory: the memories linked to it (its connected component, bounded so a
 * huge component cannot stall a request) and the chain through it, oldest first, with the
 * relation that led to each step — Theanine relations, or Superseded / FusedInto for versions.
 */

import { graphOf } from "../../core/graph-of.js";
import { allTimelines } from "../../core/memory-graph.js";
import type { TimelineEntry } from "../../core/recall.js";
import type { Edge, Memory, Scope } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

export interface TimelineView {
  /** Every memory of the component, oldest first. */
  memories: Memory[];
  edges: Edge[];
  /** The chain from the oldest memory that leads to this one, through it, to the latest. */
  chain: TimelineEntry[];
}

export async function walkTimeline(
  store: MemoryStore,
  scope: Scope,
  start: string,
  limit = 500,
): Promise<TimelineView> {
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
  const kept = [...edges.values()].filter((e) => seen.has(e.from) && seen.has(e.to));
  const byId = new Map(memories.map((m) => [m.id, m]));
  const steps = allTimelines(graphOf(memories, kept), start, 1)[0] ?? [{ id: start, relation: null }];
  const chain = steps.map((s) => ({
    id: s.id,
    text: byId.get(s.id)!.text,
    at: byId.get(s.id)!.observedAt,
    relation: s.relation,
  }));
  return { memories, edges: kept, chain };
}
