import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Scope } from "../core/types.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";
import { IndexBudget } from "./index-cache.js";
import { ScopeCache, type ScopeCacheKind } from "./scope-cache.js";

const scopeA: Scope = { tenant: "t", agent: "a" };
const scopeB: Scope = { tenant: "t", agent: "b" };

/** A store that has only a change log: each write bumps the version and names what changed. */
function logStore(options: { log?: boolean; keep?: number } = {}) {
  let version = 0;
  const log: { version: number; memories: string[] }[] = [];
  const store = {
    changeVersion: async () => String(version),
    ...(options.log === false
      ? {}
      : {
          changesSince: async (_scope: Scope, since: string): Promise<ScopeChanges | null> => {
            const from = Number(since);
            // The log keeps only the newest entries: older versions cannot be served.
            if (options.keep !== undefined && version - from > options.keep) return null;
            const memories = log.filter((e) => e.version > from).flatMap((e) => e.memories);
            return {
              version: String(version),
              memories,
              turns: [],
              memoryVectors: [],
              turnVectors: [],
              edges: [],
            };
          },
        }),
  } as unknown as MemoryStore;
  return {
    store,
    write(...memories: string[]) {
      version++;
      log.push({ version, memories });
    },
  };
}

/** A kind whose value is the list of memory ids it has seen, counting builds and catch-ups. */
function countingKind(
  calls: { builds: number; catchUps: number },
  rebuild?: string,
): ScopeCacheKind<string[]> {
  return {
    name: "ids",
    build: async () => {
      calls.builds++;
      return [];
    },
    catchUp: async (held, _scope, changes) => {
      calls.catchUps++;
      return changes.memories.length ? [...held, ...changes.memories] : held;
    },
    ...(rebuild ? { rebuildInstead: () => rebuild } : {}),
  };
}

describe("scope cache", () => {
  it("answers from what it holds while the scope's version stays, reading nothing", async () => {
    const { store } = logStore();
    const calls = { builds: 0, catchUps: 0 };
    const cache = new ScopeCache(store, { kind: countingKind(calls), bound: { entries: 4 } });
    const first = await cache.get(scopeA);
    assert.equal(await cache.get(scopeA), first);
    assert.deepEqual(calls, { builds: 1, catchUps: 0 });
  });

  it("catches up from the change log when the version moved, with only what changed", async () => {
    const { store, write } = logStore();
    const calls = { builds: 0, catchUps: 0 };
    const cache = new ScopeCache(store, { kind: countingKind(calls), bound: { entries: 4 } });
    await cache.get(scopeA);
    write("m1");
    write("m2");
    assert.deepEqual(await cache.get(scopeA), ["m1", "m2"]);
    write("m3");
    // The next catch-up reads from the version the value holds, so nothing is applied twice.
    assert.deepEqual(await cache.get(scopeA), ["m1", "m2", "m3"]);
    assert.deepEqual(calls, { builds: 1, catchUps: 2 });
  });

  it("builds again, and says why, when the store keeps no log, the log no longer reaches back, or the kind asks", async () => {
    for (const [store, kindRebuild, reason] of [
      [logStore({ log: false }), undefined, "the store keeps no change log"],
      [logStore({ keep: 1 }), undefined, "the change log no longer reaches back to it"],
      [logStore(), "too many changes", "too many changes"],
    ] as const) {
      const calls = { builds: 0, catchUps: 0 };
      const told: string[] = [];
      const cache = new ScopeCache(store.store, {
        kind: countingKind(calls, kindRebuild),
        bound: { entries: 4 },
        onRebuild: (_scope, kind, why) => told.push(`${kind}: ${why}`),
      });
      await cache.get(scopeA);
      store.write("m1");
      store.write("m2");
      await cache.get(scopeA);
      assert.deepEqual(calls, { builds: 2, catchUps: 0 }, reason);
      assert.deepEqual(told, [`ids: ${reason}`]);
    }
  });

  it("shares one build between callers that ask at once", async () => {
    const { store } = logStore();
    const calls = { builds: 0, catchUps: 0 };
    const cache = new ScopeCache(store, { kind: countingKind(calls), bound: { entries: 4 } });
    const [a, b, c] = await Promise.all([cache.get(scopeA), cache.get(scopeA), cache.get(scopeA)]);
    assert.equal(a, b);
    assert.equal(b, c);
    assert.equal(calls.builds, 1);
  });

  it("keeps at most its bound of entries, the least recently used leaving first", async () => {
    const { store } = logStore();
    const calls = { builds: 0, catchUps: 0 };
    const cache = new ScopeCache(store, { kind: countingKind(calls), bound: { entries: 2 } });
    await cache.get(scopeA, "s1");
    await cache.get(scopeA, "s2");
    await cache.get(scopeA, "s1"); // s1 is now the most recently used
    await cache.get(scopeA, "s3"); // s2 leaves
    assert.equal(cache.size, 2);
    assert.ok(cache.peek(scopeA, "s1"));
    assert.equal(cache.peek(scopeA, "s2"), undefined);
    await cache.get(scopeA, "s2");
    assert.equal(calls.builds, 4);
  });

  it("under a shared byte budget, evicts other scopes' entries, never the scope just used", async () => {
    const { store } = logStore();
    const budget = new IndexBudget(150);
    const calls = { builds: 0, catchUps: 0 };
    const kind: ScopeCacheKind<{ bytes: number }> = {
      name: "sized",
      build: async () => {
        calls.builds++;
        return { bytes: 100 };
      },
      catchUp: async (held) => held,
    };
    const cache = new ScopeCache(store, {
      kind,
      bound: { budget, bytes: (v) => (v as { bytes: number }).bytes },
    });
    await cache.get(scopeA);
    await cache.get(scopeB); // over budget: A leaves, B (just used) stays
    assert.equal(budget.count, 1);
    assert.equal(cache.peek(scopeA), undefined);
    assert.ok(cache.peek(scopeB));
    await cache.get(scopeA);
    assert.equal(calls.builds, 3);
  });

  it("belongs to its owner: two caches over one store hold their own entries", async () => {
    const { store, write } = logStore();
    const one = { builds: 0, catchUps: 0 };
    const two = { builds: 0, catchUps: 0 };
    const a = new ScopeCache(store, { kind: countingKind(one), bound: { entries: 4 } });
    const b = new ScopeCache(store, { kind: countingKind(two), bound: { entries: 4 } });
    await a.get(scopeA);
    write("m1");
    assert.deepEqual(await b.get(scopeA), []);
    assert.deepEqual(await a.get(scopeA), ["m1"]);
    assert.deepEqual(
      [one, two],
      [
        { builds: 1, catchUps: 1 },
        { builds: 1, catchUps: 0 },
      ],
    );
  });

  it("drops a failed build, so the next call tries again", async () => {
    const { store } = logStore();
    let fail = true;
    const cache = new ScopeCache(store, {
      kind: {
        name: "flaky",
        build: async () => {
          if (fail) throw new Error("store went away");
          return "ok";
        },
        catchUp: async (held) => held,
      },
      bound: { entries: 4 },
    });
    await assert.rejects(cache.get(scopeA), /store went away/);
    fail = false;
    assert.equal(await cache.get(scopeA), "ok");
  });
});
