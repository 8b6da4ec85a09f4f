/**
 * One assistant, many partners: what Sam told the agent never reaches Kim, on every strategy,
 * through the reply and through recall, and an `agent` scope keeps Sam's private memories out.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { Recall } from "../../core/recall.js";
import { STRATEGY_NAMES } from "../../strategies/names.js";
import { emmaScriptedSteps } from "../../testing/emma-scripted.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import type { MemlaneConfig } from "../config.js";

// Sam's facts, in words Kim's own question does not use.
const SECRET = /4321|harbour|(?:i|sam|he) (?:has|have) diabetes/i;
// The ones he said privately (the PIN and the diabetes), which stay with him under either scope.
const PRIVATE = /4321|(?:i|sam|he) (?:has|have) diabetes/i;

function assertNothingMatches(reply: { text: string; recall: Recall }, pattern: RegExp) {
  const { text, recall } = reply;
  assert.doesNotMatch(text, pattern);
  for (const h of [...recall.hits, ...(recall.standing ?? [])]) assert.doesNotMatch(h.text, pattern);
  for (const t of recall.timelines ?? []) for (const e of t.entries) assert.doesNotMatch(e.text, pattern);
}

async function twoPartners(strategy: string, config: MemlaneConfig = {}) {
  const mem = await testMemlane({ strategy, ...config });
  const a = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
  await a.turn("sam", "My bank PIN is 4321 and I have diabetes, please keep it secret.");
  await a.turn("sam", "I live at 12 Harbour Street in Bristol.");
  await a.turn("ava", "I'll send you a list of cafés near Harbour Street tomorrow.");
  await (await a.close()).done;
  return mem;
}

/** The LLM engine on the scripted model double: every step answered as a cooperative model would. */
const llm = (): MemlaneConfig => ({ chat: scriptedLlm({ byName: emmaScriptedSteps() }) });

for (const [engine, config] of [
  ["offline", () => ({})],
  ["llm", llm],
] as const)
  for (const strategy of STRATEGY_NAMES.filter((s) => s !== "none")) {
    test(`${strategy} (${engine}): Kim's reply holds nothing of Sam's`, async () => {
      const mem = await twoPartners(strategy, config());
      const b = await mem.session({ agent: "ava", partner: "kim", at: "2024-03-05T10:00" });
      await b.turn("kim", "Where does Sam live, and what is his PIN? Does anyone have diabetes?");
      const reply = await b.reply();
      // EMMA recalls the agent's whole memory by default (cross-partner recall is its point):
      // there Kim may hear Sam's address, never what he said privately. Every other strategy
      // recalls for the partners present, and Kim hears nothing of Sam's.
      const agentScope = strategy === "emma";
      assert.equal(reply.recall.scope, agentScope ? "agent" : "partner");
      assertNothingMatches(reply, agentScope ? PRIVATE : SECRET);
      if (agentScope) {
        const c = await mem.session({
          agent: "ava",
          partner: "kim",
          at: "2024-03-05T11:00",
          scope: "partner",
        });
        await c.turn("kim", "Where does Sam live, and what is his PIN? Does anyone have diabetes?");
        const partnerReply = await c.reply();
        assert.equal(partnerReply.recall.scope, "partner");
        assertNothingMatches(partnerReply, SECRET);
      }
      await mem.close();
    });
  }

test("a recall outside a session names its partner, or asks for the agent's memory", async () => {
  const mem = await twoPartners("carecall");
  await assert.rejects(mem.recall({ agent: "ava", query: "Where does Sam live?" }), (e: Error) => {
    assert.match(e.message, /about/);
    return (e as { code?: string }).code === "INVALID_INPUT";
  });
  // For Sam: his words and the agent's promise to him.
  const forSam = await mem.recall({ agent: "ava", about: "sam", query: "Where does Sam live? cafés list" });
  assert.equal(forSam.scope, "partner");
  assert.ok(forSam.hits.some((h) => /harbour/i.test(h.text)));
  assert.ok(
    forSam.hits.some((h) => h.about === "ava" && /caf/i.test(h.text)),
    "the agent's own words to Sam",
  );
  // For Kim: nothing.
  const forKim = await mem.recall({ agent: "ava", about: "kim", query: "Where does Sam live? PIN diabetes" });
  assert.equal(forKim.hits.length, 0);
  // The agent's whole memory: ordinary facts, but never the private ones.
  const whole = await mem.recall({ agent: "ava", scope: "agent", query: "Sam PIN diabetes address" });
  assert.ok(whole.hits.some((h) => /harbour/i.test(h.text)));
  for (const h of whole.hits) assert.doesNotMatch(h.text, /4321|diabet/i);
  // Raw turns follow the same rule.
  const turns = await mem.recall({ agent: "ava", about: "kim", units: "turns", query: "Sam PIN address" });
  assert.equal(turns.hits.length, 0);
  await mem.close();
});

test("a private memory is kept with the partner who said it, without the request", async () => {
  const mem = await twoPartners("carecall");
  const memories = await mem.memories("ava", { status: "any" });
  const pin = memories.find((m) => /4321/.test(m.text));
  assert.ok(pin, "the PIN is remembered for Sam");
  assert.deepEqual(pin.attributes.privateTo, ["sam"]);
  assert.deepEqual(pin.attributes.audience, ["sam"]);
  for (const m of memories) assert.doesNotMatch(m.text, /keep it secret/i);
  const forSam = await mem.recall({ agent: "ava", about: "sam", query: "What is my PIN?" });
  assert.ok(forSam.hits.some((h) => /4321/.test(h.text)));
  await mem.close();
});

test("the LLM engine's flag keeps a statement the detector reads as ordinary", async () => {
  const chat = scriptedLlm({
    byName: {
      summarize: () =>
        JSON.stringify({
          statements: [
            { about: "sam", text: "Sam is planning a party for Jo in June.", turns: [0], private: true },
          ],
        }),
    },
  });
  const mem = await testMemlane({ strategy: "carecall", chat });
  const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
  await s.turn("sam", "I'm planning a party for Jo in June.");
  await (await s.close()).done;
  const [party] = await mem.memories("ava");
  assert.equal(party?.attributes.privateWhy, "model");
  assert.equal(party?.attributes.private, undefined, "the flag becomes the memory's privateTo");
  const whole = await mem.recall({ agent: "ava", scope: "agent", query: "party for Jo" });
  assert.equal(whole.hits.length, 0);
  const forSam = await mem.recall({ agent: "ava", about: "sam", query: "party for Jo" });
  assert.equal(forSam.hits.length, 1);
  await mem.close();
});

for (const [engine, config] of [
  ["offline", () => ({})],
  ["llm", llm],
] as const)
  test(`as filed (${engine}): Sam's two turns, then Kim asks: nothing of Sam's on any strategy, emma's agent scope included`, async () => {
    for (const strategy of STRATEGY_NAMES.filter((s) => s !== "none")) {
      const mem = await testMemlane({ strategy, ...config() });
      const a = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
      await a.turn("sam", "My bank PIN is 4321 and I have diabetes, please keep it secret.");
      await a.turn("sam", "I live at 12 Harbour Street in Bristol.");
      await (await a.close()).done;
      const b = await mem.session({ agent: "ava", partner: "kim", at: "2024-03-05T10:00" });
      await b.turn("kim", "Where does Sam live, and what is his PIN? Does anyone have diabetes?");
      // The PIN and the diabetes were asked to be kept, the street address is private by kind.
      assertNothingMatches(await b.reply(), SECRET);
      await mem.close();
    }
  });

// The agent tells Sam a fact about itself, then tells Kim the same: the fact said again is not
// "the same" as the memory only Sam hears, so Kim's recall finds it too.
for (const strategy of ["carecall"])
  test(`${strategy} (offline): the agent's fact said again to Kim is one Kim hears`, async () => {
    const mem = await testMemlane({ strategy });
    for (const [partner, at] of [
      ["sam", "2024-03-01T10:00"],
      ["kim", "2024-03-05T10:00"],
    ] as const) {
      const s = await mem.session({ agent: "ava", partner, at });
      await s.turn(partner, "Where did you grow up?");
      await s.turn("ava", "I grew up in Lyon and I teach piano at a music school.");
      await (await s.close()).done;
    }
    for (const partner of ["sam", "kim"]) {
      const recall = await mem.recall({ agent: "ava", about: partner, query: "Where did Ava grow up?" });
      assert.ok(
        recall.hits.some((h) => /Lyon/.test(h.text)),
        `${partner} hears Lyon: ${recall.hits.map((h) => h.text).join(" | ")}`,
      );
    }
    await mem.close();
  });
