import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../../core/errors.js";

describe("engine: mixed sessions and conversations between agents", () => {
  it("keeps memories about each of three partners in one session", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partners: ["sam", "lea", "max"], at: "2024-05-01T10:00" });
    await s.turn("ava", "Good morning, everyone!");
    await s.turn("sam", "I adopted a beagle called Biscuit last week.");
    await s.turn("lea", "I started a new job as a pharmacist in Lyon.");
    await s.turn("max", "I finally ran my first marathon in Berlin.");
    await (await s.close()).done;
    const about = (who: string) => mem.memories("ava", { about: who });
    assert.match((await about("sam")).map((m) => m.text).join(" "), /beagle/);
    assert.match((await about("lea")).map((m) => m.text).join(" "), /pharmacist/);
    assert.match((await about("max")).map((m) => m.text).join(" "), /marathon/);
    assert.deepEqual((await mem.store.getSession(mem.scope("ava"), s.id))?.partners, ["sam", "lea", "max"]);
    await mem.close();
  });

  it("lets partners join and leave; one who left cannot speak until they join again", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partners: ["sam", "lea"], at: "2024-05-01T10:00" });
    await s.turn("sam", "Hi Ava.");
    await s.leave("lea", { at: "2024-05-01T10:05" });
    await assert.rejects(s.turn("lea", "Still here?"), InvalidInputError);
    await s.join("zoe", { at: "2024-05-01T10:06" });
    await s.turn("zoe", "I just moved to Porto.");
    await assert.rejects(s.join("zoe"), ConflictError);
    await s.join("lea");
    await s.turn("lea", "Back again.");
    const stored = await mem.store.getSession(mem.scope("ava"), s.id);
    assert.deepEqual(stored?.partners, ["sam", "lea", "zoe"]);
    assert.deepEqual(Object.keys(stored?.meta.left as object), []);
    assert.equal((stored!.meta.joined as Record<string, string>).zoe, "2024-05-01T10:06:00.000Z");
    // A resumed handle reads who is present from the store.
    const again = await mem.resume("ava", s.id);
    await again.leave("sam");
    await assert.rejects(again.turn("sam", "bye"), InvalidInputError);
    await mem.close();
  });

  it("gives each agent of a conversation its own memory of the same turns, stored once per call", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const conv = await mem.conversation({
      agents: ["ava", "ben"],
      at: "2024-06-01T09:00",
      strategies: { ava: "carecall" },
    });
    await conv.turn("ava", "Hi Ben, I adopted a cat named Miso yesterday.");
    await conv.turn("ben", "Nice! I just started working as a baker in Leeds.");
    const reply = await conv.reply("ava", { query: "What does Ben do?" });
    assert.equal(reply.turn?.speaker, "ava");
    assert.equal(reply.turn?.text, reply.text);
    const avaTurns = await conv.turns("ava");
    const benTurns = await conv.turns("ben");
    assert.equal(avaTurns.length, 3);
    assert.deepEqual(
      avaTurns.map((t) => [t.id, t.speaker, t.text]),
      benTurns.map((t) => [t.id, t.speaker, t.text]),
    );
    assert.equal(avaTurns[2]!.meta.generated, true, "the reply is marked as generated");
    const jobs = await conv.close();
    for (const j of jobs) assert.equal((await j.done).state, "done");
    const avaMemory = await mem.memories("ava");
    const benMemory = await mem.memories("ben");
    assert.ok(
      avaMemory.some((m) => m.about === "ben" && /baker/.test(m.text)),
      "ava remembers ben's job",
    );
    assert.ok(
      benMemory.some((m) => m.about === "ava" && /Miso/.test(m.text)),
      "ben remembers ava's cat",
    );
    assert.ok(avaMemory.every((m) => m.agent === "ava" && m.strategy === "carecall"));
    assert.ok(benMemory.every((m) => m.agent === "ben" && m.strategy === "accumulate"));
    const [avaSession] = await mem.store.listSessions(mem.scope("ava"));
    assert.deepEqual(avaSession?.partners, ["ben"]);
    assert.equal(avaSession?.meta.conversation, conv.id);
    await assert.rejects(conv.turn("ava", "one more"), ConflictError);
    await mem.close();
  });

  it("refuses a conversation of one agent and a speaker who is not in it", async () => {
    const mem = await testMemlane();
    await assert.rejects(mem.conversation({ agents: ["ava"] }), InvalidInputError);
    await assert.rejects(mem.conversation({ agents: ["ava", "ava"] }), InvalidInputError);
    const conv = await mem.conversation({ agents: ["ava", "ben"], partners: ["sam"] });
    await conv.turn("sam", "Hello both.");
    await assert.rejects(conv.turn("eve", "Who are you?"), InvalidInputError);
    await assert.rejects(conv.reply("sam"), InvalidInputError);
    await mem.close();
  });

  it("keeps every agent's background per-turn work in order and waits for it, not just the first's", async () => {
    const { notingStrategy } = await import("../../../test/fixtures/noting-strategy.js");
    const mem = await testMemlane({
      strategies: [notingStrategy({ delayMs: () => 20 })],
      strategy: "noting",
      perTurn: "background",
    });
    const conv = await mem.conversation({ agents: ["ava", "ben"], at: "2024-06-01T09:00" });
    await conv.turn("ava", "I adopted a cat named Miso.");
    // Ben's reply waits for Ben's own per-turn work: his note about Ava's cat is there to recall.
    const { recall } = await conv.reply("ben", { query: "Miso the cat", record: false });
    assert.match(recall.hits[0]?.text ?? "", /Miso/);
    await conv.turn("ben", "I bake bread in Leeds.");
    await conv.settled();
    assert.equal((await mem.memories("ava")).length, 1);
    assert.equal((await mem.memories("ben")).length, 1);
    await mem.close();
  });

  it("picks a conversation up again, and lets a person join every agent's session", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const conv = await mem.conversation({ agents: ["ava", "ben"], id: "chat-1" });
    await conv.turn("ava", "Hello Ben.");
    const again = await mem.resumeConversation("ben", "chat-1");
    assert.deepEqual(again.agents, ["ava", "ben"]);
    await again.join("sam");
    await again.turn("sam", "Hi both, I just moved to Lisbon.");
    assert.equal((await again.turns("ava")).length, 2);
    assert.deepEqual(again.session("ava").partners, ["ben", "sam"]);
    await assert.rejects(mem.resumeConversation("ava", "nope"), NotFoundError);
    await mem.close();
  });

  it("keeps both joins when two handles add partners at once, and a caller's id never wedges a session", async () => {
    const mem = await testMemlane({ strategy: "accumulate" });
    const s = await mem.session({ agent: "ava", partner: "sam", id: "s1" });
    const other = await mem.resume("ava", "s1");
    await Promise.all([s.join("lea"), other.join("max")]);
    assert.deepEqual((await mem.store.getSession(mem.scope("ava"), "s1"))?.partners, ["sam", "lea", "max"]);
    await s.turn("sam", "first, with the id the second turn would get", { id: "s1:2" });
    await s.turn("sam", "second");
    await s.turn("sam", "third");
    assert.deepEqual(
      (await s.turns()).map((t) => t.text),
      ["first, with the id the second turn would get", "second", "third"],
    );
    await mem.close();
  });
});
