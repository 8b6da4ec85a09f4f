/**
 * `list_sessions` and `list_turns` through the official MCP client: pages to the end by cursor,
 * the library's filters, typed errors for a bad input or cursor, and a desktop client's default
 * partner keeping it to what that partner may hear.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { desktopClient } from "../../../test/fixtures/mcp-client.js";
import { isPrivateTurn } from "../../engine/privacy/hearing.js";

const quiet = { debug() {}, warn() {}, error() {} };

type Client = Awaited<ReturnType<typeof desktopClient>>;

/** Every row of a list, a page of `limit` at a time, and how many pages it took. */
async function readAll(client: Client, tool: "list_sessions" | "list_turns", args: Record<string, unknown>) {
  const key = tool === "list_sessions" ? "sessions" : "turns";
  const rows: { id: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.structured(tool, cursor === undefined ? args : { ...args, cursor });
    rows.push(...page[key]);
    cursor = page.nextCursor ?? undefined;
    pages += 1;
  } while (cursor !== undefined && pages < 50);
  return { rows, pages };
}

/** Three of my sessions, two turns each, in January, February and March; February's about work. */
async function mySessions(me: Client) {
  for (const [month, meta] of [
    ["01", {}],
    ["02", { topic: "work" }],
    ["03", {}],
  ] as const)
    await me.structured("remember", {
      at: `2024-${month}-10T09:00`,
      infer: false,
      meta,
      turns: [
        { role: "user", content: `Note ${month} from me.` },
        { role: "assistant", content: `Noted ${month}.` },
      ],
    });
}

describe("MCP lists of sessions and turns", () => {
  it("pages to the end by cursor, narrows by the library's filters, and refuses a bad input", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    await mySessions(me);

    const first = await me.structured("list_sessions", { limit: 2 });
    assert.deepEqual(
      first.sessions.map((s: { at: string }) => s.at.slice(0, 7)),
      ["2024-01", "2024-02"],
    );
    assert.equal(typeof first.nextCursor, "string");
    const rest = await me.structured("list_sessions", { limit: 2, cursor: first.nextCursor });
    assert.deepEqual(
      rest.sessions.map((s: { at: string }) => s.at.slice(0, 7)),
      ["2024-03"],
    );
    assert.equal(rest.nextCursor, null);
    assert.deepEqual(rest.sessions[0].partners, ["me"]);
    assert.deepEqual((await me.structured("list_sessions", { status: "open" })).sessions, []);
    const done = await me.structured("list_sessions", { status: ["open", "closed", "consolidated"] });
    assert.equal(done.sessions.length, 3);

    const latest = await me.structured("list_sessions", { newest: true, limit: 1 });
    assert.equal(latest.sessions[0].at.slice(0, 7), "2024-03");
    const work = await me.structured("list_sessions", { meta: { topic: "work" } });
    assert.deepEqual(
      work.sessions.map((s: { at: string }) => s.at.slice(0, 7)),
      ["2024-02"],
    );
    const since = await me.structured("list_sessions", { after: "2024-02-01" });
    assert.equal(since.sessions.length, 2);

    // Six turns, four then two, none twice; then one session's and one speaker's.
    const turns = await readAll(me, "list_turns", { limit: 4 });
    assert.equal(turns.pages, 2);
    assert.equal(new Set(turns.rows.map((t) => t.id)).size, 6);
    const march = await me.structured("list_turns", { sessionId: rest.sessions[0].id });
    assert.deepEqual(
      march.turns.map((t: { speaker: string; text: string; index: number }) => [t.index, t.speaker, t.text]),
      [
        [0, "me", "Note 03 from me."],
        [1, "ava", "Noted 03."],
      ],
    );
    const mine = await me.structured("list_turns", { speaker: "me", newest: true });
    assert.deepEqual(
      mine.turns.map((t: { text: string }) => t.text),
      ["Note 03 from me.", "Note 02 from me.", "Note 01 from me."],
    );

    const errors: [string, Record<string, unknown>, string][] = [
      ["list_sessions", { cursor: "nonsense" }, "cursor"],
      // A cursor of another list is no cursor of this one.
      ["list_turns", { cursor: first.nextCursor }, "cursor"],
      ["list_sessions", { limit: 0 }, "limit"],
      ["list_sessions", { status: "asleep" }, "status"],
      ["list_turns", { after: "not a time" }, "after"],
      ["list_turns", { page: 2 }, "page"],
    ];
    for (const [tool, args, field] of errors) {
      const r = await me.call(tool, args);
      assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(
        r.content[0]!.text,
        new RegExp(`^INVALID_INPUT \\(field: ${field}\\)`),
        r.content[0]!.text,
      );
    }
    await me.close();
    await mem.close();
  });

  it("keeps a client with a default partner to that partner's sessions and turns", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const me = await desktopClient(mem, { agent: "ava", partner: "me" });
    await mySessions(me);
    // Sam's own session, and one with both of us where Sam says something private.
    const anyone = await desktopClient(mem, { agent: "ava" });
    const sams = await anyone.structured("remember", {
      partner: "sam",
      at: "2024-02-20T09:00",
      infer: false,
      turns: [{ role: "user", content: "Sam here: my bank PIN is 4321." }],
    });
    const group = await mem.session({ agent: "ava", partners: ["me", "sam"], at: "2024-04-01T09:00" });
    await group.turn("sam", "Between us, I am pregnant.");
    await group.turn("sam", "I like tea.");
    await group.turn("me", "Me too.");
    await group.close();
    await mem.idle();
    assert.ok(isPrivateTurn({ text: "Between us, I am pregnant." }), "the fixture's turn reads as private");

    const mySessionsListed = await readAll(me, "list_sessions", { limit: 2 });
    assert.equal(mySessionsListed.rows.length, 4);
    assert.ok(mySessionsListed.rows.every((s) => s.id !== sams.sessionId));

    const heard = await me.structured("list_turns", {});
    const texts = heard.turns.map((t: { text: string }) => t.text);
    assert.deepEqual(texts.slice(-2), ["I like tea.", "Me too."]);
    assert.ok(!texts.some((t: string) => /PIN|pregnant/.test(t)), JSON.stringify(texts));
    assert.equal(texts.length, 8);
    // Page by page, a page may come back short, but the list still ends with every turn heard.
    const paged = await readAll(me, "list_turns", { limit: 3 });
    assert.deepEqual(
      paged.rows.map((t) => t.id),
      heard.turns.map((t: { id: string }) => t.id),
    );
    const empty = await me.structured("list_turns", { sessionId: sams.sessionId });
    assert.deepEqual(empty.turns, []);

    // The partner is a wall, not a default: naming another is refused. An operator's server,
    // with no partner, reads the whole list, or one partner's view when asked.
    const samsTry = await me.call("list_turns", { partner: "sam" });
    assert.match(samsTry.content[0]!.text, /^INVALID_INPUT \(field: partner\)/);
    const samsView = await anyone.structured("list_turns", { partner: "sam" });
    assert.ok(samsView.turns.some((t: { text: string }) => /PIN|pregnant/.test(t.text)));
    assert.ok(!samsView.turns.some((t: { text: string }) => /^Note/.test(t.text)));
    assert.equal((await anyone.structured("list_sessions", {})).sessions.length, 5);
    assert.equal((await anyone.structured("list_turns", {})).turns.length, 10);
    await anyone.close();
    await me.close();
    await mem.close();
  });
});
