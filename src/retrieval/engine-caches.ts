/**
 * The caches strategies read through their ports, made once per engine over its store: the
 * memory graph (theanine, emma) and the memories a reply shows whole (MemoChat's memo, the
 * standing items). Each is a scope cache kept current from the change log (scope-cache.ts).
 */
import type { Memory, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import { GraphCache, type LoadedGraph } from "./graph-cache.js";
import { type HeldFilter, HeldMemories } from "./held-memories.js";

/** What strategies may ask of the engine's caches. */
export interface ScopeCaches {
  /** The scope's memory graph (one strategy's memories, when named), current as of this call. */
  graph(scope: Scope, strategy?: string): Promise<LoadedGraph>;
  /** One strategy's active memories of one kind, in the store's order, current as of this call. */
  held(scope: Scope, filter: HeldFilter): Promise<Memory[]>;
}

export class EngineCaches implements ScopeCaches {
  private readonly graphs: GraphCache;
  private readonly memories: HeldMemories;

  constructor(store: MemoryStore) {
    this.graphs = new GraphCache(store);
    this.memories = new HeldMemories(store);
  }

  graph(scope: Scope, strategy?: string): Promise<LoadedGraph> {
    return this.graphs.load(scope, strategy);
  }

  held(scope: Scope, filter: HeldFilter): Promise<Memory[]> {
    return this.memories.get(scope, filter);
  }
}
