import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type TestService, testService } from "../../../test/fixtures/test-service.js";
import type { Memlane } from "../../engine/memlane.js";
import { createMcpServer, MCP_TOOLS } from "./mcp-tools.js";

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };

/** A client connected to the tools of one tenant through the SDK's in-memory transport. */
async function clientFor(mem: Memlane) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(mem);
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  const json = async (name: string, args: Record<string, unknown>) => {
    const r = await call(name, args);
    assert.ok(!r.isError, `${name}: ${r.content[0]?.text}`);
    return JSON.parse(r.content[0]!.text);
  };
  return { client, call, json, close: () => client.close() };
}

describe("service: MCP tools", () => {
  let s: TestService;
  before(async () => {
    s = await testService();
  });
  after(() => s.close());

  it("lists the tools with schemas and descriptions, and remembers, recalls, explains and forgets", async () => {
    const acme = await clientFor(s.mem.tenant("acme"));
    const { tools } = await acme.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...MCP_TOOLS].sort());
    for (const t of tools) {
      assert.ok((t.description ?? "").length > 40, t.name);
      assert.equal(t.inputSchema.type, "object", t.name);
    }
    const recallTool = tools.find((t) => t.name === "recall")!;
    assert.ok(
      ["agent", "query", "about", "scope", "k", "units"].every(
        (k) => k in (recallTool.inputSchema.properties ?? {}),
      ),
    );
    // Every input field says what it is, and the tools that only read say so.
    for (const t of tools)
      for (const [field, schema] of Object.entries(t.inputSchema.properties ?? {}))
        assert.ok(((schema as { description?: string }).description ?? "").length > 5, `${t.name}.${field}`);
    assert.deepEqual(
      tools
        .filter((t) => t.annotations?.readOnlyHint)
        .map((t) => t.name)
        .sort(),
      [
        "get_memory",
        "get_turn",
        "history",
        "list_memories",
        "list_sessions",
        "list_turns",
        "recall",
        "timeline",
      ],
    );

    const stored = await acme.json("remember", {
      agent: "ava",
      partner: "sam",
      at: "2024-03-02T18:00",
      turns: [
        { speaker: "ava", text: "How are things?" },
        { speaker: "sam", text: "I adopted a beagle called Biscuit and I work as a nurse in Leeds." },
      ],
    });
    assert.equal(stored.closed, true);
    assert.equal(stored.turns.length, 2);
    await s.mem.idle();
    const fact = await acme.json("remember", {
      agent: "ava",
      partner: "sam",
      fact: "I moved to Bristol in April.",
    });
    assert.equal(fact.turns.length, 1);
    await s.mem.idle();

    const recall = await acme.json("recall", {
      agent: "ava",
      about: "sam",
      query: "What dog does Sam have?",
    });
    assert.ok(
      recall.hits.some((h: { text: string }) => /beagle/i.test(h.text)),
      JSON.stringify(recall),
    );
    const list = (await acme.json("list_memories", { agent: "ava", about: "sam" })).memories;
    assert.ok(list.length >= 2);
    const beagle = list.find((m: { text: string }) => /beagle/i.test(m.text));
    const history = await acme.json("history", { agent: "ava", memoryId: beagle.id });
    assert.equal(history.memory.id, beagle.id);
    const timeline = await acme.json("timeline", { agent: "ava", memoryId: beagle.id });
    assert.ok(timeline.memories.some((m: { id: string }) => m.id === beagle.id));

    // globex's tools, given acme's ids, find nothing and change nothing.
    const globex = await clientFor(s.mem.tenant("globex"));
    for (const [tool, args] of [
      ["history", { agent: "ava", memoryId: beagle.id }],
      ["timeline", { agent: "ava", memoryId: beagle.id }],
      ["remember", { agent: "ava", partner: "sam", sessionId: stored.sessionId, fact: "globex" }],
    ] as const) {
      const r = await globex.call(tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(r.content[0]!.text, /^NOT_FOUND/, tool);
      assert.doesNotMatch(r.content[0]!.text, /beagle|Leeds/i);
    }
    assert.deepEqual(await globex.json("list_memories", { agent: "ava", status: "any" }), {
      memories: [],
      nextCursor: null,
    });
    // A turn, the evidence of a memory, is read by id in its tenant only.
    const evidence = (await s.mem.tenant("acme").getMemory("ava", beagle.id))!.sourceTurns[0]!;
    const turn = await acme.json("get_turn", { agent: "ava", turnId: evidence });
    assert.match(turn.text, /beagle/i);
    const hidden = await globex.call("get_turn", { agent: "ava", turnId: evidence });
    assert.equal(hidden.isError, true);
    assert.match(hidden.content[0]!.text, /^NOT_FOUND/);
    assert.deepEqual((await globex.json("recall", { agent: "ava", about: "sam", query: "beagle" })).hits, []);
    // Another tenant's memory is not found there, as REST's 404: a tool error, not "forgot 0".
    const elsewhere = await globex.call("forget", { agent: "ava", memoryIds: [beagle.id] });
    assert.equal(elsewhere.isError, true);
    assert.match(elsewhere.content[0]!.text, /^NOT_FOUND \(field: memoryIds\)/);
    const noSession = await acme.call("forget", { agent: "ava", sessionId: "no-such-session" });
    assert.equal(noSession.isError, true);
    assert.match(noSession.content[0]!.text, /^NOT_FOUND \(field: sessionId\)/);
    assert.equal((await acme.json("history", { agent: "ava", memoryId: beagle.id })).memory.id, beagle.id);

    // A bad input is a tool error naming the field; forget really deletes.
    const bad = await acme.call("recall", { agent: "ava", query: "pets", k: 0 });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text, /k/);
    const none = await acme.call("remember", { agent: "ava", partner: "sam" });
    assert.equal(none.isError, true);
    assert.equal((await acme.json("forget", { agent: "ava", memoryIds: [beagle.id] })).memories, 1);
    assert.equal((await acme.call("history", { agent: "ava", memoryId: beagle.id })).isError, true);
    await acme.close();
    await globex.close();
  });

  it("serves the same tools at /mcp behind the API key, in the key's tenant", async () => {
    const rpc = (key: string | null, body: unknown) =>
      s.app.request("/mcp", {
        method: "POST",
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(body),
      });
    const listCall = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    assert.equal((await rpc(null, listCall)).status, 401);
    assert.equal((await rpc("mlk_0000000000000000_nope", listCall)).status, 401);

    const listed = await rpc(s.globex, listCall);
    assert.equal(listed.status, 200, await listed.clone().text());
    const names = ((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map(
      (t) => t.name,
    );
    assert.deepEqual(names.sort(), [...MCP_TOOLS].sort());

    const remember = await rpc(s.globex, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "remember", arguments: { agent: "gus", partner: "kim", fact: "I grow chillies." } },
    });
    assert.equal(remember.status, 200);
    await s.mem.idle();
    assert.deepEqual(await s.mem.tenant("globex").agents(), ["gus"]);
    assert.ok(!(await s.mem.tenant("acme").agents()).includes("gus"));
  });

  it("remember with one bad turn stores nothing: no open session holding the good ones", async () => {
    const acme = await clientFor(s.mem.tenant("acme"));
    const bad = await acme.call("remember", {
      agent: "noa",
      partner: "sam",
      turns: [
        { speaker: "sam", text: "I adopted a beagle called Biscuit." },
        { speaker: "noa", text: "Lovely!" },
        { speaker: "bob", text: "Who let me in?" },
      ],
    });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0]!.text, /^INVALID_INPUT/);
    assert.deepEqual(await s.mem.tenant("acme").sessions("noa"), []);
    assert.deepEqual(await s.mem.tenant("acme").turns("noa"), []);
    await acme.close();
  });

  it("adds, updates and restores a memory, and answers a bad call with a tool error that changes nothing", async () => {
    const acme = await clientFor(s.mem.tenant("acme"));
    const added = await acme.json("add_memory", {
      agent: "mia",
      about: "joe",
      text: "Joe drives a red van.",
    });
    assert.equal(added.operation.type, "ADD");
    const first = added.memory.id as string;
    const updated = await acme.json("update_memory", {
      agent: "mia",
      memoryId: first,
      text: "Joe drives a blue van.",
      meta: { why: "he said so" },
    });
    assert.deepEqual([updated.operation.type, updated.superseded.id], ["UPDATE", first]);
    assert.deepEqual(updated.memory.attributes.meta, { why: "he said so" });
    const stale = await acme.call("update_memory", { agent: "mia", memoryId: first, text: "Joe walks." });
    assert.ok(stale.isError);
    assert.match(
      stale.content[0]!.text,
      new RegExp(`^CONFLICT \\(field: memoryId\\): .*${updated.memory.id}`),
    );
    const restored = await acme.json("restore_memory", { agent: "mia", memoryId: first });
    assert.equal(restored.memory.status, "active");
    assert.deepEqual(
      restored.retired.map((m: { id: string }) => m.id),
      [updated.memory.id],
    );
    const history = await acme.json("history", { agent: "mia", memoryId: first });
    assert.deepEqual(
      history.corrections.map((c: { type: string }) => c.type),
      ["ADD", "UPDATE", "RESTORE"],
    );
    const before = await s.mem.tenant("acme").memories("mia", { status: "any" });
    const bad = await acme.call("add_memory", {
      agent: "mia",
      about: "joe",
      text: "Joe has a dog.",
      infer: false,
    });
    assert.ok(bad.isError);
    assert.match(bad.content[0]!.text, /^INVALID_INPUT \(field: infer\)/);
    const missing = await acme.call("restore_memory", { agent: "mia", memoryId: "mem_nope" });
    assert.match(missing.content[0]!.text, /^NOT_FOUND/);
    assert.deepEqual(await s.mem.tenant("acme").memories("mia", { status: "any" }), before);
    await acme.close();
  });
});
