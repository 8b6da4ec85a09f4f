/**
 * A reply sees the session's newest turns only (`replyWindow`), so its prompt
 * and its step's input do not grow with the session, and one long turn cannot fill the prompt.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "../../core/errors.js";
import type { ChatMessage } from "../../models/chat-model.js";
import { scopeA, turn } from "../../testing/rows.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { testMemlane } from "../../testing/test-memlane.js";
import { DEFAULT_REPLY_WINDOW, parseReplyWindow, replyWindowOf } from "./reply-window.js";

describe("reply window", () => {
  it("keeps the newest turns within the turn and character limits, oldest first", () => {
    const turns = Array.from({ length: 10 }, (_, i) =>
      turn(scopeA, "s1", i, "sam", `line ${i} ${"x".repeat(90)}`),
    );
    assert.deepEqual(
      replyWindowOf(turns, { turns: 3, chars: 10_000 }).map((t) => t.index),
      [7, 8, 9],
    );
    // Each turn is 98 characters: 300 holds three, not four.
    assert.deepEqual(
      replyWindowOf(turns, { turns: 40, chars: 300 }).map((t) => t.index),
      [7, 8, 9],
    );
    assert.deepEqual(replyWindowOf([], DEFAULT_REPLY_WINDOW), []);
  });

  it("cuts a newest turn longer than the window at a word and marks the cut, leaving the stored turn whole", () => {
    const long = turn(scopeA, "s1", 1, "sam", "word ".repeat(10_000).trim());
    const [shown, ...rest] = replyWindowOf([turn(scopeA, "s1", 0, "sam", "hi"), long], {
      turns: 40,
      chars: 1000,
    });
    assert.equal(rest.length, 0);
    assert.ok(shown!.text.length <= 1000);
    assert.match(shown!.text, /^word( word)+ \[…\]$/);
    assert.equal(shown!.id, long.id);
    assert.equal(long.text.length, 49_999);
  });

  it("refuses a malformed window with a typed error", () => {
    assert.throws(() => parseReplyWindow({ turns: 0 }), InvalidInputError);
    assert.throws(() => parseReplyWindow({ chars: 10 }), InvalidInputError);
    assert.deepEqual(parseReplyWindow({ turns: 5 }), { turns: 5, chars: DEFAULT_REPLY_WINDOW.chars });
  });

  it("shows a small model a third of its window of dialogue by default, and what the caller sets otherwise", () => {
    assert.equal(parseReplyWindow(undefined, 4096).chars, 5734);
    assert.equal(parseReplyWindow(undefined, 128_000).chars, DEFAULT_REPLY_WINDOW.chars);
    assert.equal(parseReplyWindow({ chars: 20_000 }, 4096).chars, 20_000);
  });

  it("gives the reply model the window, not the whole session; recall still searches all of history", async () => {
    const prompts: ChatMessage[][] = [];
    const chat = scriptedLlm({
      byName: {
        reply: (messages) => {
          prompts.push(messages);
          return "Noted.";
        },
      },
    });
    const mem = await testMemlane({ chat, strategy: "carecall", replyWindow: { turns: 6 } });
    const first = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-01T10:00" });
    await first.turn("sam", "My sister Dana lives in Lisbon.");
    await (await first.close()).done;
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-08T10:00" });
    for (let i = 0; i < 12; i++) {
      await s.turn("sam", `Small talk number ${i}.`);
      await s.turn("ava", `Reply number ${i}.`);
    }
    await s.turn("sam", "Where does my sister Dana live?");
    const { recall } = await s.reply();
    const dialogue = prompts.at(-1)!.filter((m) => m.role !== "system");
    assert.equal(dialogue.length, 6);
    assert.equal(dialogue[0]!.content, "Reply number 9.");
    assert.equal(dialogue.at(-1)!.content, "Where does my sister Dana live?");
    assert.ok(
      recall.hits.some((h) => h.text.includes("Lisbon")),
      "recall reaches past the window",
    );
    await mem.close();
  });

  it("keeps a reply late in a long session within a 4K model's window, and records a prompt it cannot fit", async () => {
    const prompts: ChatMessage[][] = [];
    const chat = scriptedLlm(
      {
        byName: {
          reply: (messages) => {
            prompts.push(messages);
            return "Noted.";
          },
        },
      },
      { contextWindow: 4096 },
    );
    const mem = await testMemlane({ chat, strategy: "none" });
    const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-08T10:00" });
    for (let i = 0; i < 30; i++) {
      await s.turn(
        "sam",
        `Story part ${i}: ${"the ferry was late again and the harbour was full of gulls. ".repeat(5)}`,
      );
      await s.turn("ava", `Reply ${i}: ${"that sounds like a long morning at the harbour. ".repeat(5)}`);
    }
    await s.turn("sam", "What did I say about the ferry?");
    await s.reply();
    const sent = prompts.at(-1)!.reduce((n, m) => n + Math.ceil(m.content.length / 4) + 4, 0);
    assert.ok(sent <= 4096 - 400, `a reply prompt of ${sent} tokens for a 4,096-token model`);
    await mem.close();

    const small = scriptedLlm({}, { contextWindow: 1024 });
    const tight = await testMemlane({ chat: small, strategy: "none", replyWindow: { chars: 24_000 } });
    const t = await tight.session({ agent: "ava", partner: "sam", at: "2024-03-08T10:00" });
    await t.turn("sam", "word ".repeat(2000));
    await t.reply();
    const [op] = await tight.store.listOperations(tight.scope("ava"), { type: "REPLY" });
    const warnings = (op!.outputs as { warnings?: { kind: string }[] }).warnings;
    assert.equal(warnings?.[0]?.kind, "over-window", "the REPLY operation says its prompt did not fit");
    await tight.close();
  });
});
