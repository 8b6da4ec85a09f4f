/**
 * The conformance cases of paged, filtered lists (`MemoryStore.listPage`): keyset pages on each
 * list's total order that neither repeat nor skip a row while others are written, and filters
 * that mean in every store what core/memory-filter.ts and core/meta-filter.ts mean in process.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { InvalidInputError } from "../core/errors.js";
import { memoryFilterTest } from "../core/memory-filter.js";
import type { Memory, MemoryFilter, Scope } from "../core/types.js";
import type { ListPage, ListRequest, MemoryStore } from "../store/memory-store.js";
import { axis, memory, operation, scopeA, scopeB, session, turn } from "./rows.js";
import type { StoreFactory } from "./store-factory.js";

async function using(factory: StoreFactory, body: (store: MemoryStore) => Promise<void>): Promise<void> {
  const { store, cleanup } = await factory();
  try {
    await body(store);
  } finally {
    await store.close();
    await cleanup?.();
  }
}

type Request = ListRequest extends infer R ? (R extends unknown ? Omit<R, "after" | "limit"> : never) : never;

/** Every row of a list read `limit` at a time, `between` run after each page. */
async function readAll(
  store: MemoryStore,
  scope: Scope,
  request: Request,
  limit: number,
  between: (page: number) => Promise<void> = async () => {},
): Promise<{ ids: string[]; pages: number }> {
  assert.ok(store.listPage, "the store pages its lists");
  const ids: string[] = [];
  let after: string[] | null = null;
  for (let pages = 1; ; pages++) {
    const page: ListPage = await store.listPage(scope, { ...request, after, limit } as ListRequest);
    assert.ok(page.rows.length <= limit);
    for (const row of page.rows) ids.push("id" in row ? row.id : "");
    await between(pages);
    if (!page.next) return { ids, pages };
    after = page.next;
  }
}

const at = (day: number) => `2024-03-${String(day).padStart(2, "0")}T10:00:00.000Z`;

export function runListCases(factory: StoreFactory): void {
  it("pages every list in its order, nothing read twice or skipped while rows are written", async () => {
    await using(factory, async (store) => {
      // Ties on time: the order goes on to the next key, so it is total.
      const ms = [3, 1, 2, 2, 2, 5, 4].map((day, i) => memory(scopeA, `m${i}`, { observedAt: at(day) }));
      await store.write(scopeA, {
        sessions: [session(scopeA, "s2", at(2)), session(scopeA, "s1", at(1))],
        memories: ms,
      });
      await store.write(scopeA, {
        turns: [0, 1, 2].flatMap((i) => [
          turn(scopeA, "s1", i, "sam", `one ${i}`, at(1)),
          turn(scopeA, "s2", i, "sam", `two ${i}`, at(2)),
        ]),
        edges: ms.slice(1).map((m, i) => ({
          id: `e${i}`,
          ...scopeA,
          from: ms[0]!.id,
          to: m.id,
          type: "Link" as const,
          attributes: {},
          recordedAt: at(10 + i),
        })),
        operations: [1, 2, 3, 4, 5].map((day) => operation(scopeA, { type: "NEW", at: at(day) })),
      });
      await store.write(scopeB, { memories: [memory(scopeB, "another agent's")] });
      const ordered = [...ms].sort(
        (a, b) =>
          a.observedAt.localeCompare(b.observedAt) ||
          a.recordedAt.localeCompare(b.recordedAt) ||
          (a.id < b.id ? -1 : 1),
      );
      // A memory written before the cursor's place is not read; one written after it is.
      const early = memory(scopeA, "early", { observedAt: at(1) });
      const late = memory(scopeA, "late", { observedAt: at(9) });
      const read = await readAll(store, scopeA, { table: "memories", filter: {} }, 3, async (page) => {
        if (page === 1) await store.write(scopeA, { memories: [early, late] });
      });
      assert.deepEqual(read.ids, [...ordered.map((m) => m.id), late.id]);
      assert.equal(read.pages, 3);
      // The array list and the pages agree on the order.
      assert.deepEqual(
        (await readAll(store, scopeA, { table: "memories", filter: {} }, 2)).ids,
        (await store.listMemories(scopeA)).map((m) => m.id),
      );
      assert.deepEqual((await readAll(store, scopeA, { table: "sessions", filter: {} }, 1)).ids, [
        "s1",
        "s2",
      ]);
      assert.deepEqual((await readAll(store, scopeA, { table: "turns", filter: {} }, 4)).ids, [
        "s1:1",
        "s1:2",
        "s1:3",
        "s2:1",
        "s2:2",
        "s2:3",
      ]);
      assert.deepEqual((await readAll(store, scopeA, { table: "edges", filter: {} }, 4)).ids, [
        "e0",
        "e1",
        "e2",
        "e3",
        "e4",
        "e5",
      ]);
      const ops = await store.listOperations(scopeA);
      const oldest = await readAll(store, scopeA, { table: "operations", filter: {} }, 2);
      assert.deepEqual(
        oldest.ids,
        ops.map((o) => o.id),
      );
      const newest = await readAll(store, scopeA, { table: "operations", filter: {}, newest: true }, 2);
      assert.deepEqual(newest.ids, [...oldest.ids].reverse());
      // An exact fit ends without an empty page after it.
      assert.equal((await readAll(store, scopeA, { table: "sessions", filter: {} }, 2)).pages, 1);
    });
  });

  it("refuses a page key that is not one of the list's", async () => {
    await using(factory, async (store) => {
      assert.ok(store.listPage);
      await assert.rejects(
        store.listPage(scopeA, { table: "memories", filter: {}, after: ["x"], limit: 5 }),
        InvalidInputError,
      );
      await assert.rejects(
        store.listPage(scopeA, { table: "turns", filter: {}, after: ["a", "s1", "1; DROP"], limit: 5 }),
        InvalidInputError,
      );
    });
  });

  it("filters memories by meta and dates as core/memory-filter.ts does, in lists, pages and vector search", async () => {
    await using(factory, async (store) => {
      const ms: Memory[] = [
        memory(scopeA, "work, 42", {
          observedAt: at(1),
          attributes: { meta: { topic: "work", n: 42, flag: true } },
        }),
        memory(scopeA, "home", { observedAt: at(2), attributes: { meta: { topic: "home", n: 4.5 } } }),
        memory(scopeA, "nested", { observedAt: at(3), attributes: { meta: { topic: { in: ["work"] } } } }),
        memory(scopeA, "no meta", { observedAt: at(4), kind: "fact", sessionId: "s1" }),
        memory(scopeA, "replaced", {
          observedAt: at(2),
          status: "superseded",
          invalidAt: at(5),
          attributes: { meta: { topic: "work" } },
        }),
        memory(scopeA, "private work", {
          observedAt: at(6),
          attributes: { meta: { topic: "work" }, audience: ["sam"], privateTo: ["sam"] },
        }),
      ];
      await store.write(scopeA, {
        memories: ms,
        embeddings: ms.map((m, i) => ({
          ownerKind: "memory" as const,
          ownerId: m.id,
          model: "x",
          vector: axis(0, 8, i / 10),
        })),
      });
      const filters: MemoryFilter[] = [
        { meta: { topic: "work" } },
        { meta: { topic: { in: ["work", "home"] } } },
        { meta: { n: "42" } },
        { meta: { n: 4.5 } },
        { meta: { flag: true } },
        { meta: { flag: "true", topic: "work" } },
        { meta: { missing: "x" } },
        { meta: {} },
        { meta: { topic: "work" }, status: "any" },
        { observedAfter: at(2), observedBefore: at(4) },
        { validAfter: at(3), validBefore: at(3), status: "any" },
        { validAfter: at(5), status: "any" },
        { kind: ["fact"], sessionId: "s1", observedAfter: at(4) },
        { meta: { topic: "work" }, hearing: { scope: "agent", partners: ["kim"] } },
        { meta: { topic: "work" }, hearing: { scope: "agent", partners: ["sam"] } },
      ];
      for (const filter of filters) {
        const expected = ms
          .filter(memoryFilterTest(filter))
          .map((m) => m.id)
          .sort();
        const label = JSON.stringify(filter);
        assert.deepEqual((await store.listMemories(scopeA, filter)).map((m) => m.id).sort(), expected, label);
        assert.deepEqual(
          (await readAll(store, scopeA, { table: "memories", filter }, 2)).ids.sort(),
          expected,
          label,
        );
        assert.deepEqual(
          (await store.searchMemories(scopeA, axis(0), "x", 10, filter)).map((h) => h.id).sort(),
          expected,
          label,
        );
      }
      // What held on the 3rd: the replaced memory still did; on the 5th it no longer does.
      const heldOn = async (day: number) =>
        (await store.listMemories(scopeA, { validAfter: at(day), validBefore: at(day), status: "any" }))
          .map((m) => m.text)
          .sort();
      assert.ok((await heldOn(3)).includes("replaced"));
      assert.ok(!(await heldOn(5)).includes("replaced"));
    });
  });

  it("filters sessions, turns, operations and edges by their fields, meta and time", async () => {
    await using(factory, async (store) => {
      const s1 = { ...session(scopeA, "s1", at(1), ["sam"]), meta: { topic: "work", n: 1 } };
      const s2 = {
        ...session(scopeA, "s2", at(2), ["kim", "sam"]),
        meta: { topic: "home" },
        strategy: "carecall",
      };
      const s3 = { ...session(scopeA, "s3", at(3), ["kim"]), status: "open" as const };
      const [a, b] = [memory(scopeA, "a"), memory(scopeA, "b")];
      await store.write(scopeA, { sessions: [s1, s2, s3], memories: [a, b] });
      await store.write(scopeA, {
        turns: [
          { ...turn(scopeA, "s1", 0, "sam", "hello", at(1)), meta: { channel: "sms" } },
          turn(scopeA, "s1", 1, "ava", "hi", at(1)),
          { ...turn(scopeA, "s2", 0, "kim", "hey", at(2)), meta: { channel: "web" } },
        ],
        edges: [
          { id: "e1", ...scopeA, from: a.id, to: b.id, type: "Link", attributes: {}, recordedAt: at(1) },
          { id: "e2", ...scopeA, from: b.id, to: a.id, type: "Cause", attributes: {}, recordedAt: at(2) },
        ],
        operations: [
          operation(scopeA, { type: "NEW", at: at(1), memoryIds: [a.id], sessionId: "s1" }),
          operation(scopeA, { type: "REPLACE", at: at(2), memoryIds: [b.id], status: "failed" }),
        ],
      });
      const ids = async (request: Request) => (await readAll(store, scopeA, request, 1)).ids;
      assert.deepEqual(await ids({ table: "sessions", filter: { meta: { topic: "work" } } }), ["s1"]);
      assert.deepEqual(await ids({ table: "sessions", filter: { meta: { n: "1" } } }), ["s1"]);
      assert.deepEqual(
        await ids({ table: "sessions", filter: { meta: { topic: { in: ["work", "home"] } } } }),
        ["s1", "s2"],
      );
      assert.deepEqual(await ids({ table: "sessions", filter: { partner: "kim" } }), ["s2", "s3"]);
      assert.deepEqual(
        await ids({ table: "sessions", filter: { status: ["open", "closed"], strategy: "accumulate" } }),
        ["s1", "s3"],
      );
      assert.deepEqual(await ids({ table: "sessions", filter: { after: at(2), before: at(3) } }), ["s2"]);
      assert.deepEqual(await ids({ table: "turns", filter: { meta: { channel: "sms" } } }), ["s1:1"]);
      assert.deepEqual(await ids({ table: "turns", filter: { sessionId: "s1", speaker: "ava" } }), ["s1:2"]);
      assert.deepEqual(await ids({ table: "turns", filter: { after: at(2) } }), ["s2:1"]);
      const ops = await store.listOperations(scopeA);
      assert.deepEqual(await ids({ table: "operations", filter: { memoryId: b.id } }), [ops[1]!.id]);
      assert.deepEqual(await ids({ table: "operations", filter: { status: "done", sessionId: "s1" } }), [
        ops[0]!.id,
      ]);
      assert.deepEqual(await ids({ table: "operations", filter: { type: "REPLACE", before: at(3) } }), [
        ops[1]!.id,
      ]);
      assert.deepEqual(await ids({ table: "operations", filter: { after: at(3) } }), []);
      assert.deepEqual(await ids({ table: "edges", filter: { memoryId: a.id } }), ["e1", "e2"]);
      assert.deepEqual(await ids({ table: "edges", filter: { type: ["Cause"] } }), ["e2"]);
      // Nothing of another agent's scope.
      assert.deepEqual((await readAll(store, scopeB, { table: "sessions", filter: {} }, 5)).ids, []);
    });
  });
}
