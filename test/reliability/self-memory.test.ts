/**
 * What an agent said itself is remembered. Replies memlane generates were
 * skipped by every memory writer, so an agent never kept its own commitments, and in a
 * conversation of agents each one's replies were skipped in every other's memory too: agents
 * talking only among themselves remembered nothing. Now an agent keeps what it says about itself
 * and promises, another agent's reply is a partner's words, and a reply that repeats what it
 * remembers is still never filed as a fact about the one repeating it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { testMemlane } from "../fixtures/engine.js";

const generated = { meta: { generated: true } };

describe("reliability: self-memory", () => {
  for (const strategy of ["carecall", "emma"]) {
    it(`${strategy}, offline: agents speaking only in generated replies remember themselves and each other`, async () => {
      const mem = await testMemlane({ strategy });
      try {
        const conv = await mem.conversation({ agents: ["ava", "ben"], at: "2024-06-01T09:00" });
        await conv.turn("ava", "I'm training for the Leeds marathon in May next year.", generated);
        await conv.turn("ben", "I will bake the bread for your birthday party on Friday.", generated);
        await conv.turn("ava", "I remember you moved to York last year.", generated);
        await conv.turn("ben", "You told me you hate running in the rain.", generated);
        for (const j of await conv.close()) assert.equal((await j.done).state, "done");
        const ava = await mem.memories("ava");
        const ben = await mem.memories("ben");
        const show = (ms: typeof ava) => JSON.stringify(ms.map((m) => [m.about, m.text]));
        assert.ok(
          ava.some((m) => m.about === "ava" && /marathon/.test(m.text)),
          `ava keeps her plan: ${show(ava)}`,
        );
        assert.ok(
          ben.some((m) => m.about === "ben" && /bread/.test(m.text)),
          `ben keeps his promise: ${show(ben)}`,
        );
        assert.ok(
          ava.some((m) => m.about === "ben" && /bread/.test(m.text)),
          `ava heard ben's promise: ${show(ava)}`,
        );
        assert.ok(
          ben.some((m) => m.about === "ava" && /marathon/.test(m.text)),
          `ben heard ava's plan: ${show(ben)}`,
        );
        // What each repeated from memory is not a fact about the one repeating it.
        assert.ok(!ava.some((m) => m.about === "ava" && /York/.test(m.text)), show(ava));
        assert.ok(!ben.some((m) => m.about === "ben" && /rain/.test(m.text)), show(ben));
      } finally {
        await mem.close();
      }
    });
  }

  it("a reply quoting what the partner said leaves nothing about the agent, however its sentences are cut", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    try {
      const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-05-20T10:00" });
      await s.turn("sam", "How are you?");
      // The offline reply's own form: dated quotations, some long enough to be cut inside.
      await s.turn(
        "ava",
        "Here is what I remember:\n- On 20 May 2024 you told me: “I ran the Bristol half marathon yesterday and finished in 1 hour 58 minutes.”\n- On 16 March 2024 you told me: “I'm planning to move to Bristol next month if the flat hunt goes well.”",
        generated,
      );
      await s.turn("ava", "I will call you on Friday to hear how the race went.", generated);
      await (await s.close()).done;
      const aboutAva = (await mem.memories("ava")).filter((m) => m.about === "ava").map((m) => m.text);
      assert.deepEqual(
        aboutAva.filter((t) => !/call/.test(t)),
        [],
        "no piece of a quotation is filed about the agent",
      );
      assert.ok(
        aboutAva.some((t) => /call/.test(t) && /Friday/.test(t)),
        `the promise is kept: ${JSON.stringify(aboutAva)}`,
      );
    } finally {
      await mem.close();
    }
  });

  it("keeps the demo agent's promise, and nothing else about the agent", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    try {
      await mem.ingest(
        JSON.parse(readFileSync(new URL("../../data/demo-conversation.json", import.meta.url), "utf8")),
      );
      const aboutAva = (await mem.memories("ava", { status: "any" })).filter((m) => m.about === "ava");
      assert.deepEqual(
        aboutAva.map((m) => m.text),
        ["Ava will send Sam Ava's list of favourite Bristol cafés in the weekend of 16 March 2024."],
      );
    } finally {
      await mem.close();
    }
  });

  it("files no one's hearsay, recited memories or quote frames as facts about the one who said them", async () => {
    const mem = await testMemlane({ strategy: "emma" });
    try {
      const conv = await mem.conversation({ agents: ["ava", "ben", "cy"], at: "2025-04-28T10:00" });
      // A scripted line of Cy's: hearsay about Ben, then a fact of Cy's own.
      await conv.turn(
        "cy",
        "I heard Ben lost two hives to mites this winter. My uncle kept bees in Devon for forty years.",
      );
      // Generated replies in memlane's own recital form: a quote frame and dated memory lines.
      await conv.turn(
        "ben",
        "On 1 March 2025 I said: “I've ordered two nucleus colonies for April.”\nHow it developed, as I remember it:\n- 1 March 2025: I have ordered two nucleus colonies for April.\n- 28 April 2025: I check for mites every month.\n- On 28 April 2025 I noted that Cy is allergic to bee stings.",
        generated,
      );
      await conv.turn("ava", "On 20 March 2025 I said: “Our open day is on 14 June.”", generated);
      for (const j of await conv.close()) assert.equal((await j.done).state, "done");
      const all = [
        ...(await mem.memories("ava")),
        ...(await mem.memories("ben")),
        ...(await mem.memories("cy")),
      ];
      const show = JSON.stringify(all.map((m) => [m.agent, m.about, m.text]));
      assert.ok(!all.some((m) => /heard|lost/.test(m.text)), `no hearsay anywhere: ${show}`);
      assert.ok(!all.some((m) => /^[-•]|\d{4}:/.test(m.text)), `no recited memory lines: ${show}`);
      assert.ok(!all.some((m) => /allergic|noted/.test(m.text)), `no recited notes: ${show}`);
      assert.ok(!all.some((m) => /\bsaid\W*$/.test(m.text)), `no empty quote frames: ${show}`);
      assert.ok(
        all.some((m) => m.agent === "ben" && m.about === "cy" && /uncle kept bees/.test(m.text)),
        `Cy's own fact reaches Ben: ${show}`,
      );
    } finally {
      await mem.close();
    }
  });

  it("files nothing from the offline reply's words about the past", async () => {
    const mem = await testMemlane({ strategy: "carecall" });
    try {
      const s = await mem.session({ agent: "ava", partner: "sam", at: "2025-04-28T10:00" });
      await s.turn("sam", "Do you still live in Leeds?");
      await s.turn(
        "ava",
        "On 1 March 2025 I said: “I live in Leeds.” As far as I remember, that held until 12 March 2025; now: Ava moved to Bristol.",
        generated,
      );
      await (await s.close()).done;
      const aboutAva = (await mem.memories("ava")).filter((m) => m.about === "ava");
      assert.deepEqual(
        aboutAva.map((m) => m.text),
        [],
        "a recited past and its replacement are not new claims",
      );
    } finally {
      await mem.close();
    }
  });
});
