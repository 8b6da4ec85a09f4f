/**
 * Memory graphs loaded from the store, held per scope and strategy (a scope cache,
 * scope-cache.ts, owned by the engine) with the scope's change version they hold: every theanine reply walks the graph, and reading it from the store
 * each time grows with the agent's whole history. After a write, the graph catches up from the
 * store's change log (only the memories and edges that changed are read). A write that touched
 * none of the strategy's memories and no edge (a turn, a session, another strategy's memories)
 * keeps the held graph as it is: the agent loop writes a turn before nearly every recall.
 * Otherwise the graph is made anew from what is held, the changed memories merged into the held
 * order (no sort of the whole scope), pausing between its passes so that a large scope's remake
 * does not hold every other caller; it is read whole again only when the log cannot serve it. A
 * loaded graph is never changed once handed out, so sharing it is safe. At most GRAPHS_KEPT
 * graphs are held, the least recently used leaving first.
 */
import { graphOfInSlices } from "../core/graph-of.js";
import type { MemoryGraph } from "../core/memory-graph.js";
import { byEdgeOrder, byStoreOrder } from "../core/memory-order.js";
import type { Edge, Memory, Scope } from "../core/types.js";
import { breathe, ITEMS_PER_LOOK } from "../core/yield-to-loop.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";
import { ScopeCache } from "./scope-cache.js";

export interface LoadedGraph {
  graph: MemoryGraph;
  memories: Map<string, Memory>;
}

/** What a cache entry keeps beside the graph: every edge read, in the store's order, to make the next graph from. */
interface Held extends LoadedGraph {
  edges: Edge[];
}

/** Graphs held per engine; a process serving many agents keeps only the recently used ones. */
export const GRAPHS_KEPT = 64;

/** The memory graph of a scope (and a strategy), kept current from the change log. */
export class GraphCache {
  private readonly cache: ScopeCache<Held>;

  constructor(store: MemoryStore) {
    this.cache = new ScopeCache<Held>(store, {
      kind: {
        name: "graph",
        build: (scope, [strategy]) => readGraph(store, scope, strategy || undefined),
        catchUp: (held, scope, changes, [strategy]) =>
          caughtUp(store, scope, strategy || undefined, held, changes),
      },
      bound: { entries: GRAPHS_KEPT },
    });
  }

  /** The graph of the scope's memories (of one strategy, when named) and the edges between them. */
  async load(scope: Scope, strategy?: string): Promise<LoadedGraph> {
    return this.cache.get(scope, strategy ?? "");
  }
}

async function readGraph(store: MemoryStore, scope: Scope, strategy?: string): Promise<Held> {
  const memories = await store.listMemories(scope, { status: "any", ...(strategy ? { strategy } : {}) });
  const edges = await store.listEdges(scope);
  // Stores list both in these orders already (sorting sorted rows is one pass); sorting again
  // checks it whatever the store and its collation.
  return made(memories.sort(byStoreOrder), edges.sort(byEdgeOrder));
}

/** A held graph brought up to the changes, as a new graph (the same one when none concerns it). */
async function caughtUp(
  store: MemoryStore,
  scope: Scope,
  strategy: string | undefined,
  held: Held,
  changes: ScopeChanges,
): Promise<Held> {
  const ids = [...new Set(changes.memories)];
  if (ids.length === 0 && changes.edges.length === 0) return held;
  const ends = [...new Set(changes.edges.flatMap((e) => [e.from, e.to]))];
  const [rows, edgeRows] = await Promise.all([
    ids.length ? store.listMemories(scope, { ids, status: "any", ...(strategy ? { strategy } : {}) }) : [],
    ends.length ? store.listEdges(scope, ends) : [],
  ]);
  // Only other strategies' memories changed (or were forgotten): nothing this graph holds.
  if (rows.length === 0 && changes.edges.length === 0 && !ids.some((id) => held.memories.has(id)))
    return held;
  const ordered = await merged(held.memories.values(), new Set(ids), rows, byStoreOrder);
  // An edge the log names and the store no longer holds was forgotten: taken out, not put back.
  const edges = await merged(held.edges, new Set(changes.edges.map((e) => e.id)), edgeRows, byEdgeOrder);
  return made(ordered, edges);
}

/**
 * `held` (in `order`) with the changed ids taken out and `rows` (their rows now, sorted here) put
 * back in place, each found by binary search: a few changes cost O(n) copying and O(changes ×
 * log n) comparisons, not a sort of the whole scope. A row read twice (an edge listed from both
 * of its ends) goes in once.
 */
async function merged<T extends { id: string }>(
  held: Iterable<T>,
  changed: Set<string>,
  rows: T[],
  order: (a: T, b: T) => number,
): Promise<T[]> {
  const kept: T[] = [];
  let seen = 0;
  for (const x of held) {
    if (!changed.has(x.id)) kept.push(x);
    if (++seen % ITEMS_PER_LOOK === 0) await breathe();
  }
  const fresh = [...new Map(rows.filter((x) => changed.has(x.id)).map((x) => [x.id, x])).values()];
  const out: T[] = [];
  let from = 0;
  for (const x of fresh.sort(order)) {
    let lo = from;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(kept[mid]!, x) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = from; i < lo; i++) out.push(kept[i]!);
    out.push(x);
    from = lo;
  }
  for (let i = from; i < kept.length; i++) out.push(kept[i]!);
  return out;
}

/**
 * The graph as a fresh read would make it from `ordered` (memories in the store's order) and the
 * edges (in theirs), with pauses between slices. The graph leaves out edges whose ends it does
 * not hold (another strategy's memories).
 */
async function made(ordered: Memory[], edges: Edge[]): Promise<Held> {
  const memories = new Map<string, Memory>();
  for (const m of ordered) {
    memories.set(m.id, m);
    if (memories.size % ITEMS_PER_LOOK === 0) await breathe();
  }
  return { graph: await graphOfInSlices(ordered, edges), memories, edges };
}
