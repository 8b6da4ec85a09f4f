/**
 * Which versions of a memory hold now: what a correction's error names, and what a restore
 * retires. A memory's later versions are the ones that replaced it (a Supersedes edge from the
 * newer, a FusedInto edge to the fused), followed on through versions that were replaced in turn;
 * and, for a memory a restore retired, the one that restore made current. Nothing here writes.
 */
import { versionStep } from "../../core/graph-of.js";
import type { Memory, Scope } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";

/** How many memories the walk reads at most, so a huge version graph cannot stall a call. */
const WALK_LIMIT = 500;

/** The active memories that took the place of `start` (never `start` itself), oldest first. */
export async function currentVersions(store: MemoryStore, scope: Scope, start: Memory): Promise<Memory[]> {
  const seen = new Set([start.id]);
  const found = new Map<string, Memory>();
  let frontier = [start.id];
  // A restore writes no edge (an edge back would make the version graph a cycle): what it
  // retired is found through its operation, for the memory we start from only.
  const restoredOver = await restoredInPlaceOf(store, scope, start.id);
  let next = restoredOver ? [restoredOver] : [];
  while (frontier.length > 0 && seen.size < WALK_LIMIT) {
    const at = new Set(frontier);
    for (const e of await store.listEdges(scope, frontier)) {
      const step = versionStep(e);
      if (step && at.has(step.older)) next.push(step.newer);
    }
    next = [...new Set(next)].filter((id) => !seen.has(id));
    for (const id of next) seen.add(id);
    const rows = next.length ? await store.listMemories(scope, { ids: next, status: "any" }) : [];
    for (const m of rows) if (m.status === "active") found.set(m.id, m);
    frontier = rows.filter((m) => m.status === "superseded").map((m) => m.id);
    next = [];
  }
  return [...found.values()].sort((a, b) => (a.observedAt < b.observedAt ? -1 : 1));
}

/** The memory whose restore retired `id`, when its latest restore did. */
async function restoredInPlaceOf(store: MemoryStore, scope: Scope, id: string): Promise<string | null> {
  const [latest] = await store.listOperations(scope, {
    memoryId: id,
    type: "RESTORE",
    newest: true,
    limit: 1,
  });
  const outputs = latest?.outputs as { restored?: unknown; retired?: { id?: unknown }[] } | undefined;
  if (typeof outputs?.restored !== "string" || outputs.restored === id) return null;
  return outputs.retired?.some((r) => r.id === id) ? outputs.restored : null;
}
