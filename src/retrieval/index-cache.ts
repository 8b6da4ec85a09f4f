/**
 * Per-scope search indexes kept live in this process, under a byte budget: a scope cache
 * (scope-cache.ts) per kind of index. A scope's index is built once (a cold load), then brought up
 * to date from the store's change log at the next search after any write, by this process or
 * another: only the rows that changed are read. It is built again only when the log no longer
 * reaches back to it, or when the changes outnumber what a build would read, and the logger says
 * so. Indexes of all scopes share one budget and the least recently used leave first; an evicted
 * scope loads again when it is asked for.
 */
import type { Scope } from "../core/types.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";
import { ScopeCache } from "./scope-cache.js";

/** What the cache needs of an index: its size (how it catches up is the cache's `update`). */
export interface LiveIndex {
  /** Rows held (to judge whether a delta is worth applying). */
  readonly size: number;
  /** Roughly the bytes it holds. */
  readonly bytes: number;
}

/** Bytes of index the default budget allows in one process: 1 GiB (a 100K-turn scope takes about 300 MiB). */
export const DEFAULT_INDEX_BUDGET = 1024 * 1024 * 1024;

/**
 * One byte budget shared by every index cache of a process (memories, turns): least recently
 * used first out. The indexes of the scope just used are never evicted (a recall reads its memory
 * and turn indexes together; evicting one for the other would build each at every call), so one
 * scope larger than the budget still answers, and is then the only one kept.
 *
 * A replica that knows its share of the scopes (core/replica-share.ts) passes `home`: scopes
 * outside the share leave before any scope in it, and never make one leave. A replica that
 * answers another's scopes (its peer is down, or a client is misrouted) keeps them only in the
 * room its own scopes leave, and otherwise answers them cold; its own stay warm.
 */
export class IndexBudget {
  private readonly entries = new Map<
    string,
    { scope: string; bytes: number; evict: () => void; home: boolean }
  >();
  private total = 0;

  constructor(
    readonly limit = DEFAULT_INDEX_BUDGET,
    private readonly homeScope: (scope: Scope) => boolean = () => true,
  ) {}

  /** Bytes held now. */
  get used(): number {
    return this.total;
  }

  /** Indexes held now. */
  get count(): number {
    return this.entries.size;
  }

  /** Whether the scope is in this process's share (every scope is, unless a share was given). */
  home(scope: Scope): boolean {
    return this.homeScope(scope);
  }

  /**
   * Marks an entry of `scope` as just used, with its size now; while over the limit, evicts the
   * oldest entries of other scopes outside the share, then (for a scope in the share) the oldest
   * of other scopes in it, then (for a scope outside it) the scope's own entries.
   */
  touch(key: string, scope: string, bytes: number, evict: () => void, home = true): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { scope, bytes, evict, home });
    this.total += bytes;
    this.evictWhile((e) => !e.home && e.scope !== scope);
    if (home) this.evictWhile((e) => e.scope !== scope);
    else this.evictWhile((e) => e.scope === scope);
  }

  /** Evicts the oldest entries that `which` picks while the total is over the limit. */
  private evictWhile(which: (entry: { scope: string; home: boolean }) => boolean): void {
    for (const [k, e] of this.entries) {
      if (this.total <= this.limit) return;
      if (!which(e)) continue;
      this.entries.delete(k);
      this.total -= e.bytes;
      e.evict();
    }
  }

  /** Forgets an entry (its index was dropped). */
  drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.total -= old.bytes;
    this.entries.delete(key);
  }
}

export interface IndexCacheOptions<T extends LiveIndex> {
  /** Which index this is ("memories", "turns"): keys the budget and names it in the log. */
  kind: string;
  build(scope: Scope): Promise<T>;
  update(index: T, scope: Scope, changes: ScopeChanges): Promise<void>;
  budget: IndexBudget;
  /** Told when an index is built again although one was held (the delta could not be used). */
  onRebuild?(scope: Scope, kind: string, reason: string): void;
}

/** A delta over this share of an index's rows is applied by building again instead. */
const REBUILD_SHARE = 0.5;

/** A scope's search index of one kind, held under the shared byte budget (scope-cache.ts). */
export class IndexCache<T extends LiveIndex> {
  private readonly cache: ScopeCache<T>;

  constructor(store: MemoryStore, options: IndexCacheOptions<T>) {
    this.cache = new ScopeCache<T>(store, {
      kind: {
        name: options.kind,
        build: (scope) => options.build(scope),
        catchUp: async (index, scope, changes) => {
          await options.update(index, scope, changes);
          return index;
        },
        rebuildInstead: (index, changes) => {
          const size = changes.memories.length + changes.turns.length + changes.edges.length;
          return size > 1000 && size > REBUILD_SHARE * index.size
            ? `${size} changes: building is cheaper`
            : null;
        },
      },
      bound: { budget: options.budget, bytes: (index) => (index as T).bytes },
      ...(options.onRebuild ? { onRebuild: options.onRebuild } : {}),
    });
  }

  /** The scope's index, current as of the store's version read at the call. */
  get(scope: Scope): Promise<T> {
    return this.cache.get(scope);
  }
}
