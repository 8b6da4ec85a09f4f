// A memory's versions: every memory joined to it by supersession (Supersedes runs from the new
// memory to the one it replaced, FusedInto from an old memory to the fused one), oldest first.

const VERSION_EDGES = new Set(["Supersedes", "FusedInto"]);

/** The versions of memory `id` in a graph `{ memories, edges }`, oldest first (itself included). */
export function versionsOf(graph, id) {
  const neighbours = new Map();
  for (const edge of graph.edges) {
    if (!VERSION_EDGES.has(edge.type)) continue;
    for (const [a, b] of [
      [edge.from, edge.to],
      [edge.to, edge.from],
    ]) {
      if (!neighbours.has(a)) neighbours.set(a, []);
      neighbours.get(a).push(b);
    }
  }
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length) {
    for (const next of neighbours.get(queue.shift()) ?? [])
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
  }
  return graph.memories
    .filter((m) => seen.has(m.id))
    .sort((a, b) => a.observedAt.localeCompare(b.observedAt) || a.recordedAt.localeCompare(b.recordedAt));
}
