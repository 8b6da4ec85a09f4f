/**
 * The per-turn path reads a session's turns from the change log's delta, not
 * whole at every turn, and still sees what other connections wrote, redacted or forgot.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { MemoryStore, TurnFilter } from "../../store/memory-store.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { scopeA, session, turn } from "../../testing/rows.js";
import { DialogueCache } from "./dialogue-cache.js";

describe("dialogue cache", () => {
  it("follows turns written, redacted and forgotten elsewhere, reading whole sessions only once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-dialogue-"));
    const store = new SqliteStore(join(dir, "d.db"));
    const other = new SqliteStore(join(dir, "d.db"));
    const wholeReads: TurnFilter[] = [];
    const counting = new Proxy(store, {
      get(target, name, receiver) {
        if (name === "listTurns")
          return (scope: typeof scopeA, filter?: TurnFilter) => {
            if (filter?.sessionId) wholeReads.push(filter);
            return target.listTurns(scope, filter);
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as MemoryStore;
    const cache = new DialogueCache(counting);
    await store.write(scopeA, { sessions: [session(scopeA, "s1"), session(scopeA, "s2")] });
    await store.write(scopeA, { turns: [turn(scopeA, "s1", 0, "sam", "I adopted a beagle.")] });
    assert.deepEqual(
      (await cache.turns(scopeA, "s1")).map((t) => t.text),
      ["I adopted a beagle."],
    );
    for (let i = 1; i <= 20; i++) {
      await (i % 2 ? other : store).write(scopeA, {
        turns: [turn(scopeA, "s1", i, "sam", `turn ${i}`), turn(scopeA, "s2", i, "sam", `elsewhere ${i}`)],
      });
      const turns = await cache.turns(scopeA, "s1");
      assert.equal(turns.length, i + 1);
      assert.equal(turns.at(-1)?.text, `turn ${i}`);
    }
    assert.equal(wholeReads.length, 1, "the session was read whole once");
    await other.forget(scopeA, { sessionId: "s2" });
    await other.forget(scopeA, { about: "sam" });
    assert.deepEqual(await cache.turns(scopeA, "s1"), await store.listTurns(scopeA, { sessionId: "s1" }));
    await store.close();
    await other.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
