import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../../core/errors.js";
import type { Memlane } from "../memlane.js";
import { remember } from "../remember.js";

const quiet = { debug() {}, warn() {}, error() {} };

/** Everything the agent's scope holds, to show a refused call changed nothing. */
async function everything(mem: Memlane, agent: string) {
  return {
    sessions: await mem.sessions(agent),
    turns: await mem.turns(agent),
    memories: await mem.memories(agent, { status: "any" }),
  };
}

const exchange = [
  { role: "user" as const, content: "I adopted a beagle called Biscuit." },
  { role: "assistant" as const, content: "Biscuit is a lovely name!" },
];

describe("one-call writes: mem.add({ agent, partner, messages })", () => {
  it("stores OpenAI-style and speaker-style messages as one session, heard by the partner, and consolidates it", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const result = await mem.add({
      agent: "ava",
      partner: "kim",
      at: "2024-03-02T18:00",
      meta: { channel: "web" },
      messages: [
        ...exchange,
        { speaker: "kim", text: "I also work as a nurse in Leeds.", at: "2024-03-02T18:05", meta: { n: 3 } },
      ],
    });
    assert.equal(result.replayed, false);
    assert.deepEqual(result.session.partners, ["kim"]);
    assert.equal(result.session.status, "closed");
    assert.deepEqual(result.session.meta, { channel: "web" });
    assert.deepEqual(
      result.turns.map((t) => [t.speaker, t.text, t.at.slice(0, 16)]),
      [
        ["kim", exchange[0]!.content, "2024-03-02T18:00"],
        ["ava", exchange[1]!.content, "2024-03-02T18:00"],
        ["kim", "I also work as a nurse in Leeds.", "2024-03-02T18:05"],
      ],
    );
    assert.deepEqual(result.turns[2]!.meta, { n: 3 });
    assert.ok(result.job);
    await mem.idle();
    assert.equal((await mem.getSession("ava", result.session.id))?.status, "consolidated");
    const forKim = await mem.recall({ agent: "ava", about: "kim", query: "What dog does Kim have?" });
    assert.ok(
      forKim.hits.some((h) => /beagle/i.test(h.text)),
      JSON.stringify(forKim.hits),
    );
    // Private by default: another partner hears none of it.
    const forSam = await mem.recall({ agent: "ava", about: "sam", query: "What dog does Kim have?" });
    assert.deepEqual(forSam.hits, []);
    const turnsForSam = await mem.recall({ agent: "ava", about: "sam", query: "beagle", units: "turns" });
    assert.deepEqual(turnsForSam.hits, []);
    // The fact form still works beside it.
    const fact = await mem.add("ava", { about: "kim", text: "Kim is allergic to penicillin." });
    assert.equal(fact.operation.type, "ADD");
    await mem.close();
  });

  it("refuses a bad message with INVALID_INPUT naming it, storing nothing", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    await mem.add({ agent: "ava", partner: "kim", messages: exchange });
    await mem.idle();
    const before = await everything(mem, "ava");
    const good = { role: "user", content: "I moved to Oslo." };
    const cases: [unknown[], string][] = [
      [[good, { role: "user", content: "hi", mood: "happy" }], "messages.1.mood"],
      [[good, { role: "user", content: "   " }], "messages.1.content"],
      [[good, { role: "system", content: "be nice" }], "messages.1.role"],
      [[good, { role: "user", speaker: "kim", content: "hi" }], "messages.1.role"],
      [[good, { role: "user" }], "messages.1.content"],
      [[good, { speaker: "bob", text: "I am not here." }], "messages.1.speaker"],
      [[good, { role: "user", content: "hi", at: "not a date" }], "messages.1.at"],
      [
        [
          { ...good, at: "2024-05-02T10:00" },
          { role: "user", content: "earlier", at: "2024-05-01T10:00" },
        ],
        "messages.1.at",
      ],
      [[], "messages"],
    ];
    for (const [messages, field] of cases)
      await assert.rejects(
        mem.add({ agent: "ava", partner: "kim", messages } as never),
        (e: InvalidInputError) => {
          assert.ok(e instanceof InvalidInputError, `${field}: ${e}`);
          assert.equal(e.details.field, field, `${JSON.stringify(messages)}: ${e.message}`);
          return true;
        },
      );
    await assert.rejects(mem.add({ agent: "ava", partner: "ava", messages: exchange }), InvalidInputError);
    await assert.rejects(
      mem.add({ agent: "ava", partner: "kim", messages: exchange, infer: false, close: false }),
      InvalidInputError,
    );
    const twoArguments = mem.add as unknown as (a: unknown, b: unknown) => Promise<unknown>;
    await assert.rejects(
      twoArguments.call(mem, { agent: "ava", partner: "kim", messages: exchange }, {}),
      InvalidInputError,
    );
    assert.deepEqual(await everything(mem, "ava"), before);
    await mem.close();
  });

  it("with infer: false keeps each message as a turn and infers nothing", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const result = await mem.add({ agent: "ava", partner: "kim", messages: exchange, infer: false });
    assert.equal(result.job, null);
    assert.equal(result.session.status, "consolidated");
    await mem.idle();
    assert.equal((await mem.getSession("ava", result.session.id))?.status, "consolidated");
    assert.deepEqual(await mem.memories("ava", { status: "any" }), []);
    assert.deepEqual(await mem.operations("ava"), []);
    assert.deepEqual(
      (await mem.turns("ava")).map((t) => t.text),
      exchange.map((m) => m.content),
    );
    assert.deepEqual(await mem.waiting("ava"), []);
    const found = await mem.recall({ agent: "ava", about: "kim", query: "beagle", units: "turns" });
    assert.ok(found.hits.some((h) => /beagle/i.test(h.text)));
    await mem.close();
  });

  it("stores nothing twice for one idempotency key, answers a retry as the first, refuses the key reused", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const call = { agent: "ava", partner: "kim", messages: exchange, idempotencyKey: "req-1" };
    const first = await mem.add(call);
    const again = await mem.add(call);
    assert.equal(again.replayed, true);
    assert.equal(again.session.id, first.session.id);
    assert.deepEqual(
      again.turns.map((t) => t.id),
      first.turns.map((t) => t.id),
    );
    // At the same time too: one session, two turns.
    const both = await Promise.allSettled([
      mem.add({ ...call, idempotencyKey: "req-2" }),
      mem.add({ ...call, idempotencyKey: "req-2" }),
    ]);
    // Written whole, the second finds the first's session complete: a replay.
    assert.deepEqual(
      both.map((r) => (r.status === "fulfilled" ? r.value.replayed : String(r.reason))).sort(),
      [false, true],
    );
    await mem.idle();
    assert.equal((await mem.sessions("ava")).length, 2);
    assert.equal((await mem.turns("ava")).length, 4);
    await assert.rejects(
      mem.add({ ...call, messages: [{ role: "user", content: "Something else." }] }),
      (e: ConflictError) => e instanceof ConflictError && e.details.field === "idempotencyKey",
    );
    assert.equal((await mem.turns("ava")).length, 4);
    // infer: false is idempotent too.
    const plain = { ...call, idempotencyKey: "req-3", infer: false };
    const once = await mem.add(plain);
    assert.equal((await mem.add(plain)).session.id, once.session.id);
    assert.equal((await mem.turns("ava")).length, 6);
    await mem.close();
  });

  it("holds a key across a restart: the store remembers it, not the process", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-messages-"));
    const store = join(dir, "m.db");
    const call = { agent: "ava", partner: "kim", messages: exchange, idempotencyKey: "after-restart" };
    try {
      const one = await testMemlane({ store, strategy: "accumulate", logger: quiet });
      const first = await one.add(call);
      await one.close();
      const two = await testMemlane({ store, strategy: "accumulate", logger: quiet });
      const again = await two.add(call);
      assert.equal(again.replayed, true);
      assert.equal(again.session.id, first.session.id);
      assert.equal((await two.turns("ava")).length, 2);
      await two.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("adds to an open session with sessionId, and leaves it open with close: false", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    const opened = await mem.add({
      agent: "ava",
      partner: "kim",
      messages: exchange,
      close: false,
      id: "talk",
    });
    assert.equal(opened.session.status, "open");
    assert.equal(opened.job, null);
    const more = await mem.add({
      agent: "ava",
      partner: "kim",
      sessionId: "talk",
      messages: [{ role: "user", content: "Biscuit is two now." }],
    });
    assert.equal(more.session.status, "closed");
    assert.deepEqual(
      (await mem.turns("ava", { sessionId: "talk" })).map((t) => t.index),
      [0, 1, 2],
    );
    await assert.rejects(
      mem.add({ agent: "ava", partner: "kim", sessionId: "nope", messages: exchange }),
      NotFoundError,
    );
    await assert.rejects(
      mem.add({ agent: "ava", partner: "kim", sessionId: "talk", messages: exchange }),
      ConflictError,
    );
    await mem.close();
  });

  it("goes turn by turn for a strategy with per-turn work, which sees every message", async () => {
    const mem = await testMemlane({ strategy: "creem", logger: quiet });
    const result = await mem.add({ agent: "ava", partner: "kim", messages: exchange, idempotencyKey: "k" });
    assert.equal(result.turns.length, 2);
    const turnOps = (await mem.operations("ava", { sessionId: result.session.id })).filter(
      (o) => o.type === "TURN",
    );
    assert.equal(turnOps.length, 2, "the per-turn work ran for each message");
    assert.equal(
      (await mem.add({ agent: "ava", partner: "kim", messages: exchange, idempotencyKey: "k" })).replayed,
      true,
    );
    await assert.rejects(
      mem.add({ agent: "ava", partner: "kim", messages: [exchange[0]!, { role: "user", content: " " }] }),
      InvalidInputError,
    );
    await mem.idle();
    assert.equal((await mem.sessions("ava")).length, 1);
    await mem.close();
  });

  it("remember() with one bad turn stores nothing (no open session holding the good one)", async () => {
    const mem = await testMemlane({ strategy: "accumulate", logger: quiet });
    await assert.rejects(
      remember(mem, {
        agent: "ava",
        partner: "kim",
        turns: [
          { speaker: "kim", text: "I adopted a beagle." },
          { speaker: "bob", text: "Who am I?" },
        ],
      }),
      InvalidInputError,
    );
    assert.deepEqual(await mem.sessions("ava"), []);
    assert.deepEqual(await mem.waiting("ava"), []);
    await mem.close();
  });
});
