/**
 * Standing instructions and preferences are kept apart at session end, reach every
 * later reply and recall about that partner whatever the question, and a change of mind
 * supersedes the old version (kept, not erased); a model that fails the step fails only the step.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ChatMessage } from "../../models/chat-model.js";
import { carecallStrategy } from "../../strategies/carecall/carecall.js";
import { theanineStrategy } from "../../strategies/theanine/theanine.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { testMemlane } from "../../testing/test-memlane.js";

/** A scripted `standing` step: each partner line holding a cue becomes the given item. */
function standingModel(replies: ChatMessage[][], pairLabel?: () => string) {
  return scriptedLlm({
    ...(pairLabel ? { pairLabel } : {}),
    byName: {
      standing: (messages) => {
        // The first user message holds the lines (a retry adds a repair request after it).
        const user = messages.find((m) => m.role === "user")!.content;
        const lines = [...user.matchAll(/^\[(\d+)\] [^:]+: (.*)$/gm)];
        const held = [...user.matchAll(/^(\d+)\. \(/gm)].map((m) => Number(m[1]));
        const items = [];
        for (const [, n, text] of lines) {
          if (/kilometres/.test(text!))
            items.push({
              line: Number(n),
              kind: "instruction",
              text: "Give Sam distances in kilometres",
              replaces: null,
            });
          if (/miles are fine/.test(text!))
            items.push({
              line: Number(n),
              kind: "revoke",
              text: "Kilometres no longer asked",
              replaces: held[0] ?? null,
            });
          if (/garbage/.test(text!)) return "not json";
        }
        return JSON.stringify({ items });
      },
      reply: (messages) => {
        replies.push(messages);
        return "Sure.";
      },
    },
  });
}

describe("standing instructions", () => {
  it("keeps one at session end and shows it to later replies and recalls, whatever is asked", async () => {
    const replies: ChatMessage[][] = [];
    const mem = await testMemlane({ chat: standingModel(replies), strategy: "carecall" });
    const first = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await first.turn("sam", "I run most mornings. From now on, give me distances in kilometres.");
    await (await first.close()).done;
    const [standing] = await mem.memories("ava", { kind: "standing" });
    assert.equal(standing?.text, "Give Sam distances in kilometres");
    assert.equal(standing?.strategy, "standing");
    assert.deepEqual(standing?.sourceTurns.length, 1);

    const second = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-09T10:00" });
    await second.turn("sam", "How far is the walk from the station to the castle?");
    await second.reply();
    assert.match(replies.at(-1)![0]!.content, /Standing instructions[\s\S]*Give Sam distances in kilometres/);
    const recall = await mem.recall({ agent: "ava", about: "sam", query: "What is the weather like?" });
    assert.deepEqual(
      recall.standing?.map((h) => h.text),
      ["Give Sam distances in kilometres"],
    );
    await mem.close();
  });

  it("supersedes a taken-back one, keeping it as past, and stops showing it", async () => {
    const replies: ChatMessage[][] = [];
    const mem = await testMemlane({ chat: standingModel(replies), strategy: "carecall" });
    const first = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await first.turn("sam", "Please give me distances in kilometres.");
    await (await first.close()).done;
    const second = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-09T10:00" });
    await second.turn("sam", "Actually, miles are fine again.");
    const asked = () => mem.recall({ agent: "ava", about: "sam", query: "How far is it?" });
    // Held in this process after the first read, through turns that change no memory…
    assert.equal((await asked()).standing?.length, 1);
    await second.turn("sam", "Anyway.");
    assert.equal((await asked()).standing?.length, 1);
    await (await second.close()).done;
    // …and read again once the change log shows a standing item changed.
    assert.equal((await asked()).standing, undefined);
    const all = await mem.memories("ava", { kind: "standing", status: "any" });
    assert.equal(all.length, 1);
    assert.equal(all[0]!.status, "superseded");
    const third = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-20T10:00" });
    await third.turn("sam", "How far is Leeds from York?");
    await third.reply();
    assert.doesNotMatch(replies.at(-1)![0]!.content, /Standing instructions/);
    const ops = await mem.operations("ava");
    assert.ok(ops.some((o) => o.strategy === "standing" && o.type === "DELETE"));
    await mem.close();
  });

  it("records nothing for a taking-back when nothing is in force", async () => {
    const mem = await testMemlane({ chat: standingModel([]), strategy: "carecall" });
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await s.turn("sam", "Actually, miles are fine again.");
    await (await s.close()).done;
    assert.deepEqual(
      (await mem.operations("ava")).filter((o) => o.strategy === "standing"),
      [],
    );
    await mem.close();
  });

  it("is never a statement for a strategy's own operator to replace", async () => {
    // CareCall's operator replaces every memory it is shown here: a standing item must not be one.
    const mem = await testMemlane({ chat: standingModel([], () => "REPLACE"), strategy: "carecall" });
    for (const [at, text] of [
      ["2024-03-01T10:00", "From now on, give me distances in kilometres."],
      ["2024-03-09T10:00", "Sam said: From now on, give me distances in kilometres."],
    ] as const) {
      const s = await mem.session({ agent: "ava", partner: "sam", at });
      await s.turn("sam", text);
      await (await s.close()).done;
    }
    const standing = await mem.memories("ava", { kind: "standing", status: "any" });
    assert.deepEqual(
      standing.map((m) => m.status),
      ["active", "active"],
    );
    assert.ok(
      (await mem.memories("ava", { strategy: "carecall", status: "any" })).some(
        (m) => m.status === "superseded",
      ),
    );
    await mem.close();
  });

  it("records a model that keeps failing the step as a failed operation and still consolidates the session", async () => {
    const mem = await testMemlane({ chat: standingModel([]), strategy: "carecall" });
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await s.turn("sam", "This line makes the model answer garbage. I adopted a beagle.");
    const job = await (await s.close()).done;
    assert.equal(job?.state, "done");
    assert.equal((await mem.getSession("ava", s.id))?.status, "consolidated");
    assert.ok((await mem.memories("ava")).length > 0, "carecall's memories landed");
    const failed = (await mem.operations("ava")).filter(
      (o) => o.strategy === "standing" && o.status === "failed",
    );
    assert.equal(failed.length, 1);
    await mem.close();
  });

  it("is not kept by strategies without memory, nor when switched off", async () => {
    for (const config of [{ strategy: "none" }, { strategy: "carecall", standing: false }]) {
      const mem = await testMemlane({ chat: standingModel([]), ...config });
      const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
      await s.turn("sam", "From now on, give me distances in kilometres.");
      await (await s.close()).done;
      assert.equal((await mem.memories("ava", { kind: "standing" })).length, 0);
      await mem.close();
    }
  });

  it("follows a strategy's own standing option over the engine's", async () => {
    const kept = async (config: Parameters<typeof testMemlane>[0]) => {
      const mem = await testMemlane({ chat: standingModel([]), ...config });
      const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
      await s.turn("sam", "From now on, give me distances in kilometres.");
      await (await s.close()).done;
      const n = (await mem.memories("ava", { kind: "standing" })).length;
      await mem.close();
      return n;
    };
    assert.equal(await kept({ strategy: carecallStrategy({ standing: false }) }), 0, "off for this strategy");
    assert.equal(
      await kept({ strategy: carecallStrategy({ standing: true }), standing: false }),
      1,
      "on for this strategy, off for the engine",
    );
    assert.equal(await kept({ strategy: theanineStrategy({ standing: false }) }), 0);
  });
});
