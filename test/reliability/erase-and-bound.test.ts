/**
 * Forget erases what is asked and all of it (a person's name that reduces
 * to nothing, the replies and quotes that carry their facts, a memory's earlier forms), an older
 * conversation never retires a newer memory whatever the strategy, and ids cannot make two
 * tenants' scopes meet in a cache.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError, NotFoundError } from "../../src/core/errors.js";
import { compositeKey } from "../../src/core/ids.js";
import type { Memlane } from "../../src/engine/memlane.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { testMemlane } from "../fixtures/engine.js";
import { gate } from "../fixtures/gate.js";

const SAM = "sam";

/** Everything a scope still holds, as one string: turns, memories with their histories, the log. */
async function everything(mem: Memlane, agent: string): Promise<string> {
  const scope = mem.scope(agent);
  const memories = await mem.memories(agent, { status: "any" });
  const histories = await Promise.all(memories.map((m) => mem.history(agent, m.id)));
  // Generated ids (newId: a prefix, 12 time characters, 8 random hex digits) are masked: their
  // random part held "4321" now and then ("mem_0mwwfpr9k0004f743210"), which read as the PIN.
  return JSON.stringify([
    await mem.store.listTurns(scope),
    memories,
    histories,
    await mem.store.listOperations(scope),
  ]).replace(/\b[a-z]+_[0-9a-z]{12}[0-9a-f]{8}\b/g, "<id>");
}

describe("11: forget by person matches that person only", () => {
  for (const about of ["-", "_", "--", "'", "-_-"])
    it(`refuses about=${JSON.stringify(about)} (it names no one): NOT_FOUND listing who is there, and erases nothing`, async () => {
      const mem = await testMemlane({ strategy: "accumulate" });
      await mem.ingest({
        agent: "ava",
        sessions: [
          {
            id: "s1",
            at: "2024-03-02T18:00",
            partner: SAM,
            turns: [{ speaker: SAM, text: "I adopted a beagle and it's called Biscuit's Pride." }],
          },
        ],
      });
      const before = await mem.memories("ava", { status: "any" });
      assert.ok(before.length > 0);
      await assert.rejects(mem.forget({ agent: "ava", about }), (e: Error) => {
        assert.ok(e instanceof NotFoundError);
        assert.match(e.message, new RegExp(SAM));
        return true;
      });
      // The store refuses it too, for callers below the facade.
      await assert.rejects(mem.store.forget(mem.scope("ava"), { about }), NotFoundError);
      assert.deepEqual(await mem.memories("ava", { status: "any" }), before);
      await mem.close();
    });

  it("takes the named person's memories, not those of names that contain theirs", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const line = (id: string, partner: string, text: string, at: string) => ({
      id,
      at,
      partner,
      turns: [{ speaker: partner, text }],
    });
    await mem.ingest({
      agent: "ava",
      sessions: [
        line("a", "ann", "I bought a red bike for the canal path.", "2024-03-01T10:00"),
        line("b", "lea", "My friend Annabel and I started a choir last spring.", "2024-03-02T10:00"),
        line("c", "lea", "Joanne's bakery on the corner reopened yesterday.", "2024-03-03T10:00"),
        line("d", "lea", "I told Ann about the choir and she laughed.", "2024-03-04T10:00"),
      ],
    });
    const lea = (await mem.memories("ava", { about: "lea" })).map((m) => m.text);
    await mem.forget({ agent: "ava", about: "ann" });
    const left = (await mem.memories("ava", { status: "any" })).map((m) => m.text);
    assert.deepEqual(await mem.memories("ava", { about: "ann" }), []);
    assert.ok(
      left.some((t) => /Annabel/.test(t)),
      left.join(" | "),
    );
    assert.ok(
      left.some((t) => /Joanne/.test(t)),
      left.join(" | "),
    );
    assert.ok(!left.some((t) => /\bAnn\b/.test(t)), "the memory naming Ann goes");
    // Only the memories that name Ann go ("Lea told Ann about the choir", "Ann laughed").
    const naming = lea.filter((t) => /\bAnn\b/.test(t)).length;
    assert.ok(naming >= 1, lea.join(" | "));
    assert.equal(left.length, lea.length - naming);
    await mem.close();
  });
});

describe("12: forgetting a person takes the replies and quotes that carry their words", () => {
  const transcript = {
    agent: "ava",
    sessions: [
      {
        id: "with-sam",
        at: "2024-03-02T18:00",
        partner: SAM,
        turns: [
          { speaker: "ava", text: "Hi Sam, what should I keep in mind?" },
          { speaker: SAM, text: "My PIN is 4321. I'm allergic to penicillin." },
          { speaker: "ava", text: "Noted: your PIN is 4321 and you're allergic to penicillin." },
        ],
      },
      {
        id: "with-lea",
        at: "2024-03-09T18:00",
        partner: "lea",
        turns: [
          { speaker: "lea", text: "I started a pottery class on Tuesdays." },
          {
            speaker: "ava",
            text: "Pottery sounds fun. Someone I know has a PIN of 4321, funny. I hear Sam can't take penicillin either.",
          },
        ],
      },
    ],
  };

  for (const strategy of ["carecall", "creem", "theanine", "memochat", "accumulate"])
    it(`leaves no trace of the PIN or the allergy (${strategy})`, async () => {
      const mem = await testMemlane({ strategy });
      await mem.ingest(transcript);
      assert.match(await everything(mem, "ava"), /4321/, "the PIN was stored before");
      // Sam hears his own words, private ones included: before forgetting, his recall finds the PIN.
      const pin = { agent: "ava", query: "What is the PIN?", units: "turns" as const, k: 10 };
      assert.match(JSON.stringify(await mem.recall({ ...pin, about: SAM })), /4321/);
      await mem.forget({ agent: "ava", about: SAM });
      assert.doesNotMatch(await everything(mem, "ava"), /4321|penicillin/i);
      for (const hearing of [{ about: SAM }, { about: "lea" }, { scope: "agent" as const }])
        assert.doesNotMatch(JSON.stringify(await mem.recall({ ...pin, ...hearing })), /4321/);
      // Lea's words and the agent's own words to her stay; what named Sam or told his PIN does not.
      const turns = await mem.store.listTurns(mem.scope("ava"));
      assert.deepEqual(
        turns.map((t) => t.text),
        [
          "[forgotten]",
          "I started a pottery class on Tuesdays.",
          "Pottery sounds fun. [forgotten] [forgotten]",
        ],
      );
      await mem.close();
    });

  it("leaves the agent's words to others alone: stock phrases, round amounts, names that are words", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const lines = (partner: string, id: string, at: string, said: string, reply: string) => ({
      id,
      at,
      partner,
      turns: [
        { speaker: partner, text: said },
        { speaker: "ava", text: reply },
      ],
    });
    const toBob =
      "Thank you for sharing that with me. Around 500 is a fair budget. Will you see a doctor about it?";
    await mem.ingest({
      agent: "ava",
      sessions: [
        lines(
          "will",
          "w1",
          "2024-03-01T10:00",
          "I paid 500 euros for the bike, thank you for sharing your tips.",
          "Thank you for sharing that with me.",
        ),
        lines("bob", "b1", "2024-03-02T10:00", "My knee hurts when I cycle.", toBob),
      ],
    });
    await mem.forget({ agent: "ava", about: "will" });
    const turns = await mem.turns("ava");
    assert.deepEqual(
      turns.map((t) => t.text),
      ["My knee hurts when I cycle.", toBob],
    );
    await mem.close();
  });

  it("does not take a reply that names another person of a group session", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const reply = "Bob, your new job at the hospital in Leeds starts on 14 April, congratulations.";
    await mem.ingest({
      agent: "ava",
      sessions: [
        {
          id: "g1",
          at: "2024-03-01T10:00",
          partners: ["bob", "sam"],
          turns: [
            { speaker: "bob", text: "I got the job at the hospital in Leeds!" },
            { speaker: "sam", text: "Nice!" },
            { speaker: "ava", text: reply },
          ],
        },
      ],
    });
    await mem.forget({ agent: "ava", about: "sam" });
    assert.deepEqual(
      (await mem.turns("ava")).map((t) => t.text),
      ["I got the job at the hospital in Leeds!", reply],
    );
    await mem.close();
  });

  it("forgetting the session that replaced a memory makes the replaced version current again", async () => {
    const model = scriptedLlm({
      summary: (name, text) => `${name}: ${text}`,
      pairLabel: (memory, summary) => (/Berlin/.test(summary) && /Paris/.test(memory) ? "REPLACE" : "APPEND"),
    });
    const { carecallStrategy } = await import("../../src/strategies/carecall/carecall.js");
    const mem = await testMemlane({
      chat: model,
      cognition: "llm",
      strategy: carecallStrategy({ candidates: "all" }),
    });
    const say = (id: string, at: string, text: string) => ({
      id,
      at,
      partner: SAM,
      turns: [{ speaker: SAM, text }],
    });
    await mem.ingest({
      agent: "ava",
      sessions: [
        say("s1", "2024-03-02T18:00", "I live in Paris and I have a beagle."),
        say("s2", "2024-04-02T18:00", "I moved to Berlin."),
      ],
    });
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam: I moved to Berlin."],
    );
    await mem.forget({ agent: "ava", sessionId: "s2" });
    const now = await mem.memories("ava");
    assert.deepEqual(
      now.map((m) => [m.text, m.status, m.invalidAt]),
      [["Sam: I live in Paris and I have a beagle.", "active", null]],
      "the earlier session's memory stays, current again",
    );
    await mem.close();
  });

  it("refuses a consolidation that read a turn before a forget redacted it", async () => {
    const held = gate();
    const plain = scriptedLlm({ summary: (name, text) => `${name}: ${text}` });
    const model = scriptedLlm({
      summary: (name, text) => `${name}: ${text}`,
      byName: {
        summarize: async (messages, options) => {
          const user = messages.at(-1)!.content;
          const line = /^\[(\d+)\] [^:]+: .*locker.*$/m.exec(user);
          if (!line) return (await plain.generate(messages, options)).text;
          // Bob's session: the memory is drawn from the agent's own line, read before the forget.
          await held.pass();
          return JSON.stringify({
            statements: [{ about: "bob", text: "Bob's gym locker code is 7781.", turns: [Number(line[1])] }],
          });
        },
      },
    });
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy: "accumulate" });
    await mem.ingest({
      agent: "ava",
      sessions: [
        { id: "s", at: "2024-03-01T10:00", partner: SAM, turns: [{ speaker: SAM, text: "My PIN is 7781." }] },
      ],
    });
    const bob = await mem.session({ agent: "ava", partner: "bob", id: "b", at: "2024-03-02T10:00" });
    await bob.turn("bob", "Hi!");
    await bob.turn("ava", "Your gym locker code is 7781, like the one I was told.");
    const { done } = await bob.close();
    await held.reached;
    await mem.forget({ agent: "ava", about: SAM });
    held.open();
    await done;
    assert.doesNotMatch(JSON.stringify(await mem.memories("ava", { status: "any" })), /7781/);
    await mem.close();
  });

  it("never makes two versions current, nor undoes a DELETE, when a middle or retired version goes", async () => {
    const { rows } = await import("../../src/testing/index.js");
    const mem = await testMemlane({ strategy: "accumulate" });
    const scope = mem.scope("ava");
    const at = (m: number) => `2024-0${m}-01T10:00:00.000Z`;
    await mem.store.write(scope, {
      sessions: [1, 2, 3, 4].map((i) => rows.session(scope, `s${i}`)),
    });
    const [a, b, c] = ["Sam lives in Leeds.", "Sam lives in York.", "Sam lives in Bath."].map((text, i) =>
      rows.memory(scope, text, {
        sessionId: `s${i + 1}`,
        observedAt: at(i + 1),
        status: i === 2 ? "active" : "superseded",
        invalidAt: i === 2 ? null : at(i + 2),
      }),
    );
    // d was retired by a DELETE (no later form); e is the version it had replaced.
    const e = rows.memory(scope, "Sam has a cat.", {
      sessionId: "s1",
      status: "superseded",
      invalidAt: at(4),
    });
    const d = rows.memory(scope, "Sam has two cats.", {
      sessionId: "s4",
      status: "superseded",
      invalidAt: at(5),
    });
    const edge = (from: string, to: string) => ({
      id: `e_${from}_${to}`,
      ...scope,
      from,
      to,
      type: "Supersedes" as const,
      attributes: {},
      recordedAt: at(1),
    });
    await mem.store.write(scope, {
      memories: [a!, b!, c!, d, e],
      edges: [edge(b!.id, a!.id), edge(c!.id, b!.id), edge(d.id, e.id)],
    });
    await mem.forget({ agent: "ava", sessionId: "s2" });
    await mem.forget({ agent: "ava", sessionId: "s4" });
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam lives in Bath."],
      "Leeds stays past (Bath is current), and the DELETE-retired cat fact brings nothing back",
    );
    await mem.close();
  });

  it("takes another agent's reply in a conversation, marked generated or not", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const conv = await mem.conversation({ agents: ["ava", "ben"], partners: [SAM], at: "2024-03-02T18:00" });
    await conv.turn(SAM, "My PIN is 4321, please remember it.");
    await conv.turn("ben", "Got it, your PIN is 4321.");
    await conv.turn(SAM, "And I'm allergic to penicillin.");
    await conv.turn("ben", "Penicillin allergy, noted.", { meta: { generated: true } });
    for (const { done } of await conv.close()) await done;
    await mem.forget({ agent: "ava", about: SAM });
    assert.doesNotMatch(await everything(mem, "ava"), /4321|penicillin/i);
    assert.match(await everything(mem, "ben"), /4321/, "ben's own memory is ben's to forget");
    await mem.close();
  });

  it("takes a fused memory's earlier forms and the statement it was fused from", async () => {
    const model = scriptedLlm({
      summary: (name, text) => `${name}: ${text}`,
      pairLabel: (memory, summary) => (/Rover/.test(summary) && /Biscuit/.test(memory) ? "FUSION" : "APPEND"),
      byName: { "carecall.fuse": () => JSON.stringify({ sentence: "Sam has two dogs, Biscuit and Rover." }) },
    });
    const { carecallStrategy } = await import("../../src/strategies/carecall/carecall.js");
    const strategy = carecallStrategy({ candidates: "all", fusion: true });
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy });
    const say = (id: string, at: string, text: string) => ({
      id,
      at,
      partner: SAM,
      turns: [{ speaker: SAM, text }],
    });
    await mem.ingest({
      agent: "ava",
      sessions: [
        say("s1", "2024-03-02T18:00", "I have a beagle called Biscuit."),
        say("s2", "2024-04-02T18:00", "We adopted a second dog, Rover."),
        {
          id: "s3",
          at: "2024-05-02T18:00",
          partner: "lea",
          turns: [{ speaker: "lea", text: "I bake bread." }],
        },
      ],
    });
    const fused = (await mem.memories("ava")).find((m) => /two dogs/.test(m.text));
    assert.ok(fused, "the scripted model fused the two");
    const past = await mem.memories("ava", { status: "superseded" });
    assert.ok(
      past.some((m) => /Biscuit/.test(m.text)),
      "the earlier form is kept as history",
    );
    await mem.forget({ agent: "ava", memoryIds: [fused.id] });
    // The conversation's turns stay (a memory was forgotten, not the talk); no memory, history or
    // log entry still states the fact.
    const turns = await mem.store.listTurns(mem.scope("ava"));
    assert.equal(turns.length, 3);
    const rest = (await everything(mem, "ava")).replace(JSON.stringify(turns), "");
    assert.doesNotMatch(rest, /Biscuit|Rover/);
    assert.ok(
      (await mem.memories("ava")).some((m) => /bread/.test(m.text)),
      "other memories stay",
    );
    await mem.close();
  });
});

describe("13: an older conversation never retires a newer memory, whatever the strategy", () => {
  it("creem: an Updated insight from an older file becomes the newer memory's past", async () => {
    const model = scriptedLlm({
      byName: {
        "creem.blend-refine": (messages) => {
          const user = messages.at(-1)!.content;
          const line = /Latest utterances[^\n]*:\n(?:.*\n)*?Sam: (.*)$/m.exec(user)?.[1] ?? "";
          const shown = /^\(1\) /m.test(user);
          return JSON.stringify({
            insights: [
              shown
                ? { about: SAM, text: `Sam: ${line}`, type: "Updated", removes: [1] }
                : { about: SAM, text: `Sam: ${line}`, type: "New", removes: [] },
            ],
          });
        },
      },
    });
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy: "creem" });
    const say = (id: string, at: string, text: string) => ({
      id,
      at,
      partner: SAM,
      turns: [{ speaker: SAM, text }],
    });
    // The June session is ingested first; the January one arrives late.
    await mem.ingest({ agent: "ava", sessions: [say("june", "2024-06-01T10:00", "I live in Bristol now.")] });
    await mem.ingest({ agent: "ava", sessions: [say("jan", "2024-01-01T10:00", "I live in Leeds.")] });
    const current = await mem.memories("ava");
    assert.deepEqual(
      current.map((m) => m.text),
      ["Sam: I live in Bristol now."],
    );
    const [leeds] = (await mem.memories("ava", { status: "superseded" })).filter((m) => /Leeds/.test(m.text));
    assert.ok(leeds, "the older statement is kept as history");
    assert.equal(leeds.invalidAt, current[0]!.observedAt);
    const history = await mem.history("ava", current[0]!.id);
    assert.deepEqual(
      history.replaces.map((m) => m.id),
      [leeds.id],
    );
    await mem.close();
  });
});

describe("14: ids cannot make two scopes meet", () => {
  it("refuses control characters in every id", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    for (const bad of ["ava\u0000x", "ava\nx", "ava\u001bx", "ava\u007fx"]) {
      await assert.rejects(mem.session({ agent: bad, partner: SAM }), InvalidInputError);
      await assert.rejects(mem.session({ agent: "ava", partner: bad }), InvalidInputError);
      await assert.rejects(mem.session({ agent: "ava", partner: SAM, id: bad }), InvalidInputError);
      assert.throws(() => mem.tenant(bad), InvalidInputError);
      await assert.rejects(mem.recall({ agent: bad, query: "x", about: SAM }), InvalidInputError);
      await assert.rejects(mem.recall({ agent: "ava", query: "x", about: bad }), InvalidInputError);
      await assert.rejects(mem.forget({ agent: "ava", about: bad }), InvalidInputError);
      await assert.rejects(
        mem.ingest({
          agent: "ava",
          sessions: [{ id: "s", at: "2024-01-01", partner: bad, turns: [{ speaker: bad, text: "hi" }] }],
        }),
        InvalidInputError,
      );
    }
    assert.deepEqual(await mem.memories("ava", { status: "any" }), []);
    await mem.close();
  });

  it("refuses ids that print like another: invisible characters, letters not in NFC (item 17)", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    for (const bad of ["sa\u200bm", "\u200esam", "sam\ufeff", "Jose\u0301"]) {
      await assert.rejects(
        mem.session({ agent: "ava", partner: bad }),
        InvalidInputError,
        JSON.stringify(bad),
      );
      // Erasing takes ids as older releases stored them; no one is stored under this one here,
      // so it names no one, and nothing goes.
      await assert.rejects(mem.forget({ agent: "ava", about: bad }), NotFoundError, JSON.stringify(bad));
    }
    // A Persian name keeps its zero-width non-joiner.
    await mem.session({ agent: "ava", partner: "\u0645\u06cc\u200c\u0631\u0648\u062f" });
    const composed = await mem.session({ agent: "ava", partner: "Jos\u00e9" });
    assert.deepEqual(composed.session.partners, ["José"]);
    await mem.close();
    const { shown } = await import("../../src/cli/output.js");
    assert.equal(shown("sa\u200bm"), "sa\\u200bm", "printed, an invisible character is seen");
  });

  it("keys no two different id lists alike", () => {
    assert.notEqual(compositeKey("T1", "b\u0000c"), compositeKey("T1\u0000b", "c"));
    assert.notEqual(compositeKey("a", "b,c"), compositeKey("a,b", "c"));
    assert.notEqual(compositeKey('a"', "b"), compositeKey("a", '"b'));
  });

  it("two tenants whose ids would join alike keep their own recall in one process", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    // With ids joined by "/", tenant "t1" agent "b/c" and tenant "t1/b" agent "c" would share a cache.
    const one = mem.tenant("t1");
    const two = mem.tenant("t1/b");
    await one.ingest({
      agent: "b/c",
      sessions: [
        { id: "s", at: "2024-01-01", partner: SAM, turns: [{ speaker: SAM, text: "My PIN is 4321." }] },
      ],
    });
    await one.recall({ agent: "b/c", query: "PIN", about: SAM });
    assert.match(
      JSON.stringify(await one.recall({ agent: "b/c", query: "PIN", units: "turns", about: SAM })),
      /4321/,
    );
    await two.ingest({
      agent: "c",
      sessions: [{ id: "s", at: "2024-01-01", partner: SAM, turns: [{ speaker: SAM, text: "I like tea." }] }],
    });
    const theirs = await two.recall({ agent: "c", query: "PIN", units: "turns", about: SAM });
    assert.doesNotMatch(JSON.stringify(theirs), /4321/);
    await mem.close();
  });
});
