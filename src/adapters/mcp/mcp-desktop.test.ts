/**
 * The MCP tools as a desktop client uses them, through the official client: a default agent and
 * partner (`memlane mcp --agent ava --partner me`), structured content under each tool's output
 * schema, get and list, and a whole exchange stored in one call.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { desktopClient } from "../../../test/fixtures/mcp-client.js";
import { InvalidInputError } from "../../core/errors.js";
import { createMcpServer, MCP_TOOLS } from "./mcp-tools.js";

const quiet = { debug() {}, warn() {}, error() {} };

describe("MCP for desktop clients", () => {
  it("fills in the default agent and partner, an agent given in the call winning", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    const remember = me.tools.find((t) => t.name === "remember")!;
    assert.ok(!(remember.inputSchema.required ?? []).includes("agent"));
    assert.ok(!(remember.inputSchema.required ?? []).includes("partner"));
    const agentField = remember.inputSchema.properties!.agent as { description: string };
    assert.match(agentField.description, /default "ava"/);

    const stored = await me.structured("remember", {
      at: "2024-03-02T18:00",
      turns: [
        { role: "user", content: "I adopted a beagle called Biscuit." },
        { role: "assistant", content: "Biscuit is a lovely name!" },
      ],
    });
    assert.equal(stored.closed, true);
    assert.equal(stored.turns.length, 2);
    await mem.idle();
    const session = await mem.getSession("ava", stored.sessionId);
    assert.deepEqual(session?.partners, ["me"]);
    const recall = await me.structured("recall", { query: "What dog do I have?" });
    assert.ok(
      recall.hits.some((h: { text: string }) => /beagle/i.test(h.text)),
      JSON.stringify(recall),
    );
    const added = await me.structured("add_memory", { text: "I am allergic to penicillin." });
    assert.equal(added.memory.about, "me");

    // An explicit agent wins: bob's memory is his own.
    await me.structured("add_memory", { agent: "bob", text: "I play the cello." });
    assert.equal((await mem.memories("bob")).length, 1);
    assert.ok((await mem.memories("ava")).every((m) => !/cello/.test(m.text)));
    await me.close();
    await mem.close();
  });

  it("publishes an output schema for every tool and answers with structured content", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    assert.deepEqual(me.tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
    for (const t of me.tools) assert.equal(t.outputSchema?.type, "object", `${t.name} has an output schema`);

    const { memory } = await me.structured("add_memory", { text: "I live in Leeds." });
    const got = await me.structured("get_memory", { memoryId: memory.id });
    assert.deepEqual([got.id, got.text, got.status], [memory.id, "I live in Leeds.", "active"]);
    const updated = await me.structured("update_memory", { memoryId: memory.id, text: "I live in York." });
    assert.equal(updated.superseded.id, memory.id);
    assert.equal((await me.structured("get_memory", { memoryId: memory.id })).status, "superseded");
    await me.structured("add_memory", { text: "I keep bees." });
    await me.structured("add_memory", { text: "I play chess." });
    const listed = await me.structured("list_memories", { limit: 2 });
    assert.deepEqual(
      listed.memories.map((m: { text: string }) => m.text),
      ["I play chess.", "I keep bees."],
    );
    // The next page, by its cursor, holds the rest and ends the list.
    const rest = await me.structured("list_memories", { limit: 2, cursor: listed.nextCursor });
    assert.deepEqual(
      rest.memories.map((m: { text: string }) => m.text),
      ["I live in York."],
    );
    assert.equal(rest.nextCursor, null);
    const badCursor = await me.call("list_memories", { cursor: "nonsense" });
    assert.equal(badCursor.isError, true);
    assert.match(badCursor.content[0]!.text, /^INVALID_INPUT \(field: cursor\)/);
    assert.equal((await me.structured("list_memories", { status: "any" })).memories.length, 4);
    const history = await me.structured("history", { memoryId: memory.id });
    assert.equal(history.memory.id, memory.id);
    const timeline = await me.structured("timeline", { memoryId: memory.id });
    assert.ok(timeline.memories.some((m: { id: string }) => m.id === memory.id));
    const restored = await me.structured("restore_memory", { memoryId: memory.id });
    assert.equal(restored.memory.status, "active");
    const forgot = await me.structured("forget", { memoryIds: [memory.id] });
    assert.equal(forgot.memories >= 1, true);

    // Unknown ids and other tenants' ids are NOT_FOUND, and say nothing of what is stored.
    const missing = await me.call("get_memory", { memoryId: "mem_nope" });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0]!.text, /^NOT_FOUND \(field: memoryId\)/);
    const { memory: kept } = await me.structured("add_memory", { text: "I grow chillies." });
    const elsewhere = await desktopClient(mem.tenant("globex"), { agent: "ava", partner: "me" });
    const theirs = await elsewhere.call("get_memory", { memoryId: kept.id });
    assert.match(theirs.content[0]!.text, /^NOT_FOUND/);
    assert.doesNotMatch(theirs.content[0]!.text, /chillies/);
    await elsewhere.close();
    await me.close();
    await mem.close();
  });

  it("stores a whole exchange in one call, atomically and once per idempotency key", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    const exchange = {
      idempotencyKey: "chat-7-turn-3",
      turns: [
        { role: "user", content: "My sister Mia is visiting in June." },
        { role: "assistant", content: "How nice! Any plans?" },
      ],
    };
    const first = await me.structured("remember", exchange);
    const again = await me.structured("remember", exchange);
    assert.equal(again.replayed, true);
    assert.equal(again.sessionId, first.sessionId);
    assert.equal((await mem.turns("ava")).length, 2);
    const bad = await me.call("remember", {
      turns: [
        { role: "user", content: "I moved." },
        { role: "system", content: "obey" },
      ],
    });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text, /^INVALID_INPUT \(field: turns\.1\.role\)/);
    const plain = await me.structured("remember", {
      turns: [{ role: "user", content: "Note to self." }],
      infer: false,
    });
    assert.equal(plain.closed, true);
    await mem.idle();
    assert.equal((await mem.sessions("ava")).length, 2);
    assert.equal((await mem.turns("ava")).length, 3);
    await me.close();
    await mem.close();
  });

  it("refuses a default that is not an id, or the agent as its own partner", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    assert.throws(() => createMcpServer(mem, { agent: " ava" }), InvalidInputError);
    assert.throws(() => createMcpServer(mem, { agent: "ava", partner: "ava" }), InvalidInputError);
    await mem.close();
  });
});
