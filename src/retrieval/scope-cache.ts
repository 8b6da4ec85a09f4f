/**
 * State held per scope in this process and kept current from the store's change log: one
 * mechanism behind every cache the engine keeps (a session's turns, a scope's search indexes, a
 * strategy's memory graph, the memories a reply shows whole). An entry remembers the scope's
 * change version it was made at. When the version has moved, the entry catches up from the log
 * (only what changed is read); when the log cannot say (no log, or it no longer reaches back), or
 * the kind judges a rebuild cheaper, it is made anew. Concurrent callers of one entry share one
 * build or catch-up. Entries are bounded (a count, or a byte budget shared with other caches),
 * the least recently used leaving first. A cache belongs to one engine: nothing is shared through
 * module state, so two engines over one store each hold their own.
 */
import { compositeKey } from "../core/ids.js";
import type { Scope } from "../core/types.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";

/** What one kind of held state does for itself: make it, and bring it up to date. */
export interface ScopeCacheKind<T> {
  /** What it holds ("turns", "graph"…): named in the rebuild log. */
  name: string;
  /** Made whole from the store. `parts` are the key's parts after the scope. */
  build(scope: Scope, parts: readonly string[]): Promise<T>;
  /**
   * Brought up to date with the changes since it was made; the same object when nothing it
   * holds changed, or null to have it made whole again.
   */
  catchUp(held: T, scope: Scope, changes: ScopeChanges, parts: readonly string[]): Promise<T | null>;
  /** Why applying these changes would cost more than a build (then it is built), or null. */
  rebuildInstead?(held: T, changes: ScopeChanges): string | null;
}

/** How many entries a cache keeps, or the byte budget it shares. */
export type ScopeCacheBound = { entries: number } | { budget: ScopeBudget; bytes(held: unknown): number };

/**
 * A byte budget several caches share; the least recently used entry of another scope leaves
 * first. A budget that knows this process's share of the scopes says which are home (`home`):
 * entries of other scopes are passed `home: false` and leave before any of its own.
 */
export interface ScopeBudget {
  touch(key: string, scope: string, bytes: number, evict: () => void, home?: boolean): void;
  drop(key: string): void;
  home?(scope: Scope): boolean;
}

interface Made<T> {
  value: T;
  /** The change version the value holds: where the next catch-up reads the log from. */
  at: string;
}

interface Entry<T> {
  /** The version read when the entry was last asked for: a later call at it uses the entry as is. */
  version: string;
  made: Promise<Made<T>>;
  /** The value once made, for reads that cannot wait (see `peek`). */
  ready?: T;
}

export interface ScopeCacheOptions<T> {
  kind: ScopeCacheKind<T>;
  bound: ScopeCacheBound;
  /** Told when an entry is made whole again although one was held (the log could not serve it). */
  onRebuild?(scope: Scope, kind: string, reason: string): void;
}

export class ScopeCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly store: MemoryStore,
    private readonly options: ScopeCacheOptions<T>,
  ) {}

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** The scope's entry (for `parts`), current as of the store's version read at the call. */
  async get(scope: Scope, ...parts: string[]): Promise<T> {
    const key = compositeKey(scope.tenant, scope.agent, ...parts);
    const version = await this.store.changeVersion(scope);
    const hit = this.entries.get(key);
    let entry: Entry<T>;
    if (hit && hit.version === version) entry = hit;
    else {
      // Claimed before any await: concurrent callers chain on the same build or catch-up.
      const made = hit
        ? hit.made.then(
            (held) => this.caughtUp(held, version, scope, parts),
            () => this.built(version, scope, parts),
          )
        : this.built(version, scope, parts);
      entry = { version, made };
      made.then(
        (ready) => {
          entry.ready = ready.value;
        },
        () => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        },
      );
    }
    // Most recently used last; the oldest leave first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    const { bound } = this.options;
    if ("entries" in bound)
      while (this.entries.size > bound.entries) this.entries.delete(this.entries.keys().next().value!);
    const ready = (await entry.made).value;
    if ("budget" in bound && this.entries.get(key) === entry)
      bound.budget.touch(
        `${this.options.kind.name}:${key}`,
        compositeKey(scope.tenant, scope.agent),
        bound.bytes(ready),
        () => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        },
        bound.budget.home?.(scope) ?? true,
      );
    return ready;
  }

  /** The entry as last made, without reading the store or waiting; undefined when none is held. */
  peek(scope: Scope, ...parts: string[]): T | undefined {
    return this.entries.get(compositeKey(scope.tenant, scope.agent, ...parts))?.ready;
  }

  private async built(version: string, scope: Scope, parts: readonly string[]): Promise<Made<T>> {
    return { value: await this.options.kind.build(scope, parts), at: version };
  }

  private async caughtUp(
    held: Made<T>,
    version: string,
    scope: Scope,
    parts: readonly string[],
  ): Promise<Made<T>> {
    if (held.at === version) return held;
    const { kind, onRebuild } = this.options;
    const changes = this.store.changesSince ? await this.store.changesSince(scope, held.at) : null;
    const reason = !this.store.changesSince
      ? "the store keeps no change log"
      : !changes
        ? "the change log no longer reaches back to it"
        : (kind.rebuildInstead?.(held.value, changes) ?? null);
    if (!reason && changes) {
      const next = await kind.catchUp(held.value, scope, changes, parts);
      if (next) return { value: next, at: changes.version };
    }
    onRebuild?.(scope, kind.name, reason ?? "its changes could not be applied");
    return this.built(version, scope, parts);
  }
}
