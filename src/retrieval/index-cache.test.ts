/**
 * Scope indexes live under one byte budget, least recently used out; a scope's
 * own indexes are never evicted for each other; an evicted scope answers again when asked.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HashEmbedder } from "../models/hash-embedder.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { memory, session, turn } from "../testing/rows.js";
import { InProcessRetriever } from "./in-process-retriever.js";
import { IndexBudget } from "./index-cache.js";

describe("index budget", () => {
  it("evicts the least recently used scope first, never the scope in use", () => {
    const budget = new IndexBudget(100);
    const evicted: string[] = [];
    const touch = (key: string, scope: string, bytes: number) =>
      budget.touch(key, scope, bytes, () => evicted.push(key));
    touch("turns:a", "a", 40);
    touch("turns:b", "b", 40);
    touch("turns:a", "a", 40); // a is used again: b is now the oldest
    touch("memories:c", "c", 40);
    assert.deepEqual(evicted, ["turns:b"]);
    touch("turns:c", "c", 90); // c's own memories stay; a goes
    assert.deepEqual(evicted, ["turns:b", "turns:a"]);
    assert.equal(budget.count, 2);
    assert.equal(budget.used, 130, "one scope over the budget is still kept whole");
  });

  it("lets scopes outside the replica's share leave first, and never make one of its own leave", () => {
    const budget = new IndexBudget(100);
    const evicted: string[] = [];
    const touch = (key: string, scope: string, bytes: number, home: boolean) =>
      budget.touch(key, scope, bytes, () => evicted.push(key), home);
    touch("turns:mine1", "mine1", 30, true);
    touch("turns:other1", "other1", 30, false);
    touch("turns:mine2", "mine2", 30, true);
    // Over the limit for a scope of the share: the other scope leaves although mine1 is older.
    touch("turns:mine3", "mine3", 30, true);
    assert.deepEqual(evicted, ["turns:other1"]);
    // A scope outside the share that does not fit in the room left is not kept: it answers cold.
    touch("memories:other2", "other2", 30, false);
    touch("turns:other2", "other2", 30, false);
    assert.deepEqual(evicted, ["turns:other1", "memories:other2", "turns:other2"]);
    assert.equal(budget.used, 90, "the share's three scopes stay");
    // With room, it is kept, and is the first to go when the share needs the room.
    touch("turns:mine3", "mine3", 10, true);
    touch("turns:other3", "other3", 20, false);
    assert.equal(budget.count, 4);
    touch("turns:mine4", "mine4", 35, true);
    assert.deepEqual(evicted.slice(3), ["turns:other3", "turns:mine1"]);
  });

  it("answers every scope under a budget that holds only a few, and holds no more than it allows", async () => {
    const store = new SqliteStore(":memory:");
    const embedder = new HashEmbedder(64);
    for (let i = 0; i < 30; i++) {
      const scope = { tenant: "t", agent: `a${i}` };
      await store.write(scope, {
        sessions: [session(scope, "s1")],
        turns: [turn(scope, "s1", 0, "sam", `I adopted a beagle called Dog${i}.`)],
        memories: [memory(scope, `Sam adopted a beagle called Dog${i}.`)],
      });
    }
    const retriever = new InProcessRetriever(store, embedder, { budget: 60_000 });
    let peak = 0;
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 30; i++) {
        const scope = { tenant: "t", agent: `a${(i * 7) % 30}` };
        const [m] = await retriever.searchMemories(scope, { query: "what is the beagle called?", k: 1 });
        const [t] = await retriever.searchTurns(scope, { query: "beagle", k: 1 });
        assert.match(m!.text, new RegExp(`Dog${(i * 7) % 30}\\.`));
        assert.match(t!.text, new RegExp(`Dog${(i * 7) % 30}\\.`));
        peak = Math.max(peak, retriever.budget.used);
      }
    assert.ok(retriever.budget.count < 60, `${retriever.budget.count} indexes held of 60`);
    assert.ok(peak <= 60_000 + 30_000, `held ${peak} bytes`);
    await store.close();
  });
});
