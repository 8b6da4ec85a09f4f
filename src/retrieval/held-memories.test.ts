/**
 * The memories a reply shows whole (MemoChat's memo, standing items) are held
 * and kept current from the change log. After random writes, supersessions and forgets, by this
 * connection and another, the held set always equals a fresh read of the store, in its order.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Memory } from "../core/types.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { memory, scopeA } from "../testing/rows.js";
import { HeldMemories } from "./held-memories.js";
import { InProcessRetriever } from "./in-process-retriever.js";

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const filter = { strategy: "memochat", kind: "memo" };

describe("held memories", () => {
  for (const seed of [1, 2, 3]) {
    it(`equal a fresh read after random writes by two connections (seed ${seed})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "memlane-held-"));
      const store = new SqliteStore(join(dir, "h.db"));
      const held = new HeldMemories(store);
      const other = new SqliteStore(join(dir, "h.db"));
      const next = random(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
      const written: Memory[] = [];
      for (let step = 0; step < 60; step++) {
        const by: MemoryStore = next() < 0.3 ? other : store;
        const roll = next();
        const active = (await store.listMemories(scopeA, { status: "active" })).map((m) => m.id);
        if (roll < 0.5 || active.length === 0) {
          const m = memory(scopeA, `note ${step}`, {
            strategy: pick(["memochat", "memochat", "carecall"]),
            kind: pick(["memo", "memo", "summary"]),
            about: pick(["sam", "kim"]),
            observedAt: `2024-03-${String(1 + Math.floor(next() * 28)).padStart(2, "0")}T10:00:00.000Z`,
          });
          written.push(m);
          await by.write(scopeA, { memories: [m] });
        } else if (roll < 0.8) {
          await by.write(scopeA, {
            supersede: [{ oldId: pick(active), byId: null, at: "2024-04-01T00:00:00.000Z" }],
          });
        } else {
          await by.forget(scopeA, { memoryIds: [pick(active)] });
        }
        if (step % 3 === 0) {
          const fresh = await store.listMemories(scopeA, { ...filter, status: "active" });
          assert.deepEqual(
            (await held.get(scopeA, filter)).map((m) => [m.id, m.status, m.text]),
            fresh.map((m) => [m.id, m.status, m.text]),
            `step ${step}`,
          );
        }
      }
      assert.ok(written.length > 10);
      await store.close();
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    });
  }
});

describe("standing items in the search index", () => {
  it("are never searched, whether present at build or written after", async () => {
    const store = new SqliteStore(":memory:");
    const embedder = new HashEmbedder();
    const retriever = new InProcessRetriever(store, embedder);
    const said = memory(scopeA, "Give Sam distances in kilometres", { strategy: "carecall" });
    const first = memory(scopeA, "Give Sam distances in kilometres", {
      strategy: "standing",
      kind: "standing",
    });
    const vectors = async (ms: Memory[]) =>
      (await embedder.embed(ms.map((m) => m.text))).map((vector, i) => ({
        ownerKind: "memory" as const,
        ownerId: ms[i]!.id,
        model: embedder.name,
        vector,
      }));
    await store.write(scopeA, { memories: [said, first], embeddings: await vectors([said, first]) });
    const search = async () =>
      (await retriever.searchMemories(scopeA, { query: "distances in kilometres", k: 10 })).map((h) => h.id);
    assert.deepEqual(await search(), [said.id]);
    const later = memory(scopeA, "Distances in kilometres for Sam", {
      strategy: "standing",
      kind: "standing",
    });
    await store.write(scopeA, { memories: [later], embeddings: await vectors([later]) });
    assert.deepEqual(await search(), [said.id]);
    await store.close();
  });
});
