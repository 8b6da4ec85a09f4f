import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../testing/test-memlane.js";

describe("the facade's paged lists", () => {
  it("pages and filters memories, sessions, turns, operations and edges, and gets a turn", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    try {
      for (const [text, topic, at] of [
        ["Sam works at the library.", "work", "2024-01-05"],
        ["Sam has a beagle.", "home", "2024-02-05"],
        ["Sam leads the archive.", "work", "2024-03-05"],
      ] as const)
        await mem.add("ava", { about: "sam", text, at, meta: { topic } });
      const first = await mem.listMemories("ava", { meta: { topic: "work" }, limit: 1 });
      assert.deepEqual(
        first.items.map((m) => m.text),
        ["Sam works at the library."],
      );
      assert.ok(first.nextCursor);
      const second = await mem.listMemories("ava", {
        meta: { topic: "work" },
        limit: 1,
        cursor: first.nextCursor,
      });
      assert.deepEqual(
        second.items.map((m) => m.text),
        ["Sam leads the archive."],
      );
      assert.equal(second.nextCursor, null);
      const newest = await mem.listMemories("ava", { newest: true, limit: 2 });
      assert.deepEqual(
        newest.items.map((m) => m.text),
        ["Sam leads the archive.", "Sam has a beagle."],
      );
      // A cursor of one order is refused for the other.
      await assert.rejects(mem.listMemories("ava", { cursor: newest.nextCursor! }), /cursor/);
      // The array method takes the same new filters.
      assert.deepEqual(
        (await mem.memories("ava", { observedAfter: "2024-02-01", observedBefore: "2024-03-01" })).map(
          (m) => m.text,
        ),
        ["Sam has a beagle."],
      );

      const session = await mem.session({
        agent: "ava",
        partner: "sam",
        id: "s1",
        at: "2024-04-01",
        meta: { channel: "sms" },
      });
      await session.turn("sam", "I moved to Oslo.");
      await session.turn("ava", "How is Oslo?");
      const sessions = await mem.listSessions("ava", { meta: { channel: "sms" } });
      assert.deepEqual(
        sessions.items.map((s) => s.id),
        ["s1"],
      );
      assert.deepEqual((await mem.listSessions("ava", { meta: { channel: "web" } })).items, []);
      const turns = await mem.listTurns("ava", { sessionId: "s1", limit: 1 });
      assert.equal(turns.items[0]!.text, "I moved to Oslo.");
      const rest = await mem.listTurns("ava", { sessionId: "s1", cursor: turns.nextCursor! });
      assert.deepEqual(
        rest.items.map((t) => t.speaker),
        ["ava"],
      );
      // Newest first, the page reads backwards, and its cursor goes on backwards.
      const last = await mem.listTurns("ava", { sessionId: "s1", newest: true, limit: 1 });
      assert.deepEqual(
        last.items.map((t) => t.speaker),
        ["ava"],
      );
      const before = await mem.listTurns("ava", { sessionId: "s1", newest: true, cursor: last.nextCursor! });
      assert.deepEqual(
        before.items.map((t) => t.text),
        ["I moved to Oslo."],
      );
      assert.equal((await mem.getTurn("ava", turns.items[0]!.id))?.text, "I moved to Oslo.");
      assert.equal(await mem.getTurn("bob", turns.items[0]!.id), null);
      assert.equal(await mem.tenant("other").getTurn("ava", turns.items[0]!.id), null);
      const ops = await mem.listOperations("ava", { type: "ADD", newest: true, limit: 2 });
      assert.equal(ops.items.length, 2);
      assert.ok(ops.items[0]!.at >= ops.items[1]!.at);
      assert.deepEqual((await mem.listEdges("ava")).items, []);
    } finally {
      await mem.close();
    }
  });

  it("refuses bad input with a typed error naming the field", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    try {
      const cases: [() => Promise<unknown>, string][] = [
        [() => mem.listMemories("ava", { limit: 0 }), "limit"],
        [() => mem.listMemories("ava", { limit: 1001 }), "limit"],
        [() => mem.listMemories("ava", { cursor: "x" }), "cursor"],
        [() => mem.listMemories("ava", { observedAfter: "someday" }), "observedAfter"],
        [() => mem.listMemories("ava", { meta: { "a.b": "x" } }), "meta.a.b"],
        [() => mem.listMemories("ava", { meta: { topic: { in: [] } } }), "meta.topic.in"],
        [() => mem.listMemories("ava", { hearing: { scope: "agent", partners: [] } } as never), "hearing"],
        [() => mem.listSessions("ava", { status: "lost" as never }), "status"],
        [() => mem.listTurns("ava", { before: "never" }), "before"],
        [() => mem.listEdges("ava", { type: "Likes" as never }), "type"],
        [
          () => mem.recall({ agent: "ava", about: "sam", query: "x", filter: { validAfter: "soon" } }),
          "validAfter",
        ],
        [
          () =>
            mem.recall({ agent: "ava", about: "sam", query: "x", units: "turns", filter: { kind: "fact" } }),
          "filter",
        ],
      ];
      for (const [call, field] of cases)
        await assert.rejects(call, (e: Error & { code?: string; details?: { field?: string } }) => {
          assert.equal(e.code, "INVALID_INPUT");
          assert.equal(e.details?.field, field, e.message);
          return true;
        });
    } finally {
      await mem.close();
    }
  });
});
