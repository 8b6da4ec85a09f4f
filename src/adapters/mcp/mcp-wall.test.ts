/**
 * The partner wall through the official MCP client: a server for "me" (`memlane mcp --partner
 * me`) never hands over Sam's private facts, whatever a call names (about, partner, an id, a
 * page to the end), answers what "me" may hear, and writes only for "me"; a server without a
 * partner still sees everything.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { desktopClient } from "../../../test/fixtures/mcp-client.js";
import type { Memlane } from "../../engine/memlane.js";

const quiet = { debug() {}, warn() {}, error() {} };

/** Anything of Sam's that "me" must never read: said without me, or asked to be kept secret. */
const SECRET = /PIN|4321|Harbour|sailing|pregnant/i;

type Client = Awaited<ReturnType<typeof desktopClient>>;

/**
 * Sam alone (a PIN, an address, sailing: none of it heard by me), Sam and me together (Sam's
 * private pregnancy, Sam's move to Leeds which I heard), and a fact of my own.
 */
async function world(mem: Memlane) {
  const alone = await mem.session({ agent: "ava", partner: "sam", at: "2024-02-20T09:00" });
  await alone.turn("sam", "My bank PIN is 4321 and I live at 12 Harbour Street.");
  await alone.turn("sam", "I like sailing on weekends.");
  await (await alone.close()).done;
  const group = await mem.session({ agent: "ava", partners: ["me", "sam"], at: "2024-04-01T09:00" });
  await group.turn("sam", "Between us, I am pregnant.");
  await group.turn("sam", "I am moving to Leeds next month.");
  await group.turn("me", "Good luck with the move!");
  await (await group.close()).done;
  await mem.add("ava", { about: "me", text: "I keep bees.", at: "2024-04-02T09:00" });
  await mem.idle();
  const memories = await mem.memories("ava", { status: "any" });
  const turns = await mem.turns("ava");
  const memoryOf = (re: RegExp) => memories.find((m) => re.test(m.text))!.id;
  const turnOf = (re: RegExp) => turns.find((t) => re.test(t.text))!.id;
  const secrets = memories.filter((m) => SECRET.test(m.text)).map((m) => m.id);
  assert.ok(secrets.length >= 3, "the fixture holds Sam's secrets as memories");
  return {
    alone: alone.id,
    group: group.id,
    secrets,
    leeds: memoryOf(/Leeds/),
    pinTurn: turnOf(/PIN/),
    pregnantTurn: turnOf(/pregnant/),
    leedsTurn: turnOf(/Leeds/),
  };
}

/** Every row of a list, a page of one at a time. */
async function readAll(client: Client, tool: string, key: string, args: Record<string, unknown>) {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.structured(tool, { ...args, limit: 1, ...(cursor ? { cursor } : {}) });
    rows.push(...page[key]);
    cursor = page.nextCursor ?? undefined;
    pages += 1;
  } while (cursor !== undefined && pages < 100);
  return rows;
}

const noSecret = (value: unknown, what: string) => {
  const text = JSON.stringify(value);
  assert.doesNotMatch(text, SECRET, `${what}: ${text}`);
  return text;
};

/** A tool error with this code and field. */
async function refused(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  code: string,
  field: string,
) {
  const r = await client.call(tool, args);
  assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${r.content[0]?.text}`);
  assert.match(r.content[0]!.text, new RegExp(`^${code} \\(field: ${field}\\)`), r.content[0]!.text);
  noSecret(r.content, tool);
  return r.content[0]!.text;
}

describe("MCP partner wall", () => {
  it("reads only what the partner may hear, whatever the call names", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const w = await world(mem);
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    assert.match(me.client.getInstructions() ?? "", /only what "me" may hear/);

    for (const args of [
      { query: "What is Sam's bank PIN and where does he live?" },
      { query: "What is Sam's bank PIN?", about: "sam", k: 100 },
      { query: "Is Sam pregnant? Does Sam like sailing?", about: "sam", turns: 20 },
      { query: "Sam's PIN, address, hobbies", about: "sam", units: "turns", k: 100 },
      { query: "Sam", about: "sam", strategy: "emma" },
      { query: "Sam's bank PIN", about: "sam", filter: { sessionId: w.alone } },
    ]) {
      // The answer echoes the query, which names the secrets it asks for: the hits must not hold them.
      const { query: _, ...answer } = await me.structured("recall", args);
      noSecret(answer, `recall ${JSON.stringify(args)}`);
    }
    const moving = await me.structured("recall", { query: "Where is Sam moving?", about: "sam" });
    assert.ok(
      moving.hits.some((h: { text: string }) => /Leeds/.test(h.text)),
      JSON.stringify(moving),
    );
    await refused(me, "recall", { query: "Sam's PIN", scope: "agent" }, "INVALID_INPUT", "scope");

    for (const args of [{}, { about: "sam" }, { status: "any" }, { sessionId: w.alone }]) {
      const all = await readAll(me, "list_memories", "memories", args);
      noSecret(all, `list_memories ${JSON.stringify(args)}`);
      if (args.sessionId === undefined && args.about !== "me")
        assert.ok(
          all.some((m) => /Leeds/.test(String(m.text))),
          JSON.stringify(all),
        );
    }
    const mine = await me.structured("list_memories", { about: "me" });
    assert.ok(mine.memories.some((m: { text: string }) => /bees/.test(m.text)));

    // Behind the wall is exactly as missing: the same error, bar the id.
    const missing = await refused(me, "get_memory", { memoryId: "mem_nope" }, "NOT_FOUND", "memoryId");
    for (const id of w.secrets)
      for (const tool of ["get_memory", "timeline", "history"]) {
        const text = await refused(me, tool, { memoryId: id }, "NOT_FOUND", "memoryId");
        if (tool === "get_memory") assert.equal(text.replace(id, "mem_nope"), missing);
      }
    assert.match((await me.structured("get_memory", { memoryId: w.leeds })).text, /Leeds/);
    const history = await me.structured("history", { memoryId: w.leeds });
    noSecret(history, "history");
    assert.ok(history.operations.every((o: { inputs: unknown }) => o.inputs === null));
    noSecret(await me.structured("timeline", { memoryId: w.leeds }), "timeline");

    const noTurn = await refused(me, "get_turn", { turnId: "turn_nope" }, "NOT_FOUND", "turnId");
    for (const id of [w.pinTurn, w.pregnantTurn]) {
      const text = await refused(me, "get_turn", { turnId: id }, "NOT_FOUND", "turnId");
      assert.equal(text.replace(id, "turn_nope"), noTurn);
    }
    assert.match((await me.structured("get_turn", { turnId: w.leedsTurn })).text, /Leeds/);

    const sessions = await readAll(me, "list_sessions", "sessions", {});
    assert.deepEqual(
      sessions.map((s) => s.id),
      [w.group],
    );
    await refused(me, "list_sessions", { partner: "sam" }, "INVALID_INPUT", "partner");
    assert.equal((await me.structured("list_sessions", { partner: "me" })).sessions.length, 1);

    for (const args of [{}, { sessionId: w.alone }, { speaker: "sam" }, { newest: true }]) {
      const turns = await readAll(me, "list_turns", "turns", args);
      noSecret(turns, `list_turns ${JSON.stringify(args)}`);
      if (args.sessionId === undefined)
        assert.ok(
          turns.some((t) => /Leeds/.test(String(t.text))),
          JSON.stringify(turns),
        );
    }
    await refused(me, "list_turns", { partner: "sam" }, "INVALID_INPUT", "partner");

    // The operator's server, with no partner, still sees everything, and lists by partner.
    const operator = await desktopClient(mem, { agent: "ava" });
    assert.match(JSON.stringify(await readAll(operator, "list_memories", "memories", {})), /PIN/);
    assert.match((await operator.structured("get_memory", { memoryId: w.secrets[0] })).text, SECRET);
    assert.match((await operator.structured("get_turn", { turnId: w.pinTurn })).text, /PIN/);
    assert.equal((await operator.structured("list_sessions", {})).sessions.length, 2);
    const samsTurns = await operator.structured("list_turns", { partner: "sam" });
    assert.match(JSON.stringify(samsTurns), /pregnant/);
    await operator.close();
    await me.close();
    await mem.close();
  });

  it("writes only for the partner, and corrects or erases only what they may hear", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const w = await world(mem);
    const open = await mem.session({ agent: "ava", partner: "sam", at: "2024-05-01T09:00" });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    const turns = [{ role: "user", content: "Sam owes me money." }];

    await refused(me, "remember", { partner: "sam", turns }, "INVALID_INPUT", "partner");
    await refused(me, "remember", { sessionId: open.id, turns }, "NOT_FOUND", "sessionId");
    await refused(me, "add_memory", { about: "sam", text: "Sam is rude." }, "INVALID_INPUT", "about");
    await refused(me, "add_memory", { about: "ava", text: "Ava is rude." }, "INVALID_INPUT", "about");
    const [secret] = w.secrets;
    await refused(me, "update_memory", { memoryId: secret, text: "Nothing." }, "NOT_FOUND", "memoryId");
    await refused(me, "restore_memory", { memoryId: secret }, "NOT_FOUND", "memoryId");
    await refused(me, "forget", { about: "sam" }, "INVALID_INPUT", "about");
    await refused(me, "forget", { memoryIds: [secret] }, "NOT_FOUND", "memoryId");
    await refused(me, "forget", { sessionId: w.alone }, "NOT_FOUND", "sessionId");
    await refused(me, "forget", { sessionId: w.group }, "INVALID_INPUT", "sessionId");
    assert.equal((await mem.getMemory("ava", secret!))?.status, "active");
    assert.equal((await mem.turns("ava", { sessionId: open.id })).length, 0);
    assert.ok((await mem.memories("ava")).every((m) => !/rude|owes/.test(m.text)));

    // What is theirs: their own facts and exchanges, and corrections of what they heard.
    const { memory } = await me.structured("add_memory", { text: "I keep wasps." });
    assert.equal(memory.about, "me");
    await me.structured("update_memory", { memoryId: memory.id, text: "I keep hornets." });
    await me.structured("remember", { turns, infer: false });
    await me.structured("update_memory", { memoryId: w.leeds, text: "Sam is moving to York." });
    await me.structured("forget", { memoryIds: [memory.id] });
    await open.close();
    await me.close();
    await mem.close();
  });
});
