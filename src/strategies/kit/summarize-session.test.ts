import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { StepWarning } from "../../core/types.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { estimateMessageTokens } from "../../models/chat-model.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";

/** One session of about `chars` characters: Sam tells a numbered fact in every other turn. */
function longSession(chars: number, extra: { speaker: string; text: string }[] = []) {
  const turns: { speaker: string; text: string }[] = [];
  let total = 0;
  for (let n = 0; total < chars; n++) {
    const text =
      n % 2 === 0
        ? `Tell me more about fact ${n / 2}, please; I would like to hear how it came about and what happened after.`
        : `Fact ${(n - 1) / 2}: my neighbour number ${(n - 1) / 2} grows tomatoes on the roof and sells them at the Saturday market near the old harbour.`;
    turns.push({ speaker: n % 2 === 0 ? "ava" : "sam", text });
    total += text.length;
  }
  return validateTranscript({
    agent: "ava",
    sessions: [{ id: "s1", at: "2024-05-02", partner: "sam", turns: [...turns, ...extra] }],
  });
}

/** Sam's facts the summaries kept, by number. */
const factsIn = (texts: string[]) =>
  new Set(texts.flatMap((t) => [...(/Fact (\d+):/.exec(t) ?? [])].slice(1).map(Number)));

describe("session summaries sized to the model's window", () => {
  it("summarizes a 60,000-character session for an 8K model in parts no larger than the window allows, and every part's statements land", async () => {
    const chat = scriptedLlm(
      { summary: (who, text) => `${who} said: ${text.slice(0, 150)}` },
      { contextWindow: 8192 },
    );
    const mem = await testMemlane({ chat, strategy: "accumulate" });
    const transcript = longSession(60_000);
    const said = transcript.sessions[0]!.turns.filter((t) => t.speaker === "sam").length;
    assert.equal((await mem.ingest(transcript)).failed, 0);
    // The engine keeps a quarter of the window (at most 2,048 tokens) for the answer.
    const budget = { contextWindow: 8192, answerTokens: 2048 };
    const summaries = chat.calls.filter((c) => c.options.jsonSchema?.name === "summarize");
    assert.ok(summaries.length >= 3, `the session went in ${summaries.length} parts`);
    for (const call of summaries) {
      const tokens = estimateMessageTokens(call.messages);
      assert.ok(
        tokens <= budget.contextWindow - budget.answerTokens,
        `a prompt of ${tokens} tokens for a window of 8192 with ${budget.answerTokens} kept for the answer`,
      );
    }
    const kept = factsIn((await mem.memories("ava")).map((m) => m.text));
    assert.equal(kept.size, said, "a statement from every part of the session landed");
    assert.ok(kept.has(0) && kept.has(said - 1));
    await mem.close();
  });

  it("leaves out a turn too long for the window alone, says so in the log and on the SUMMARIZE operation, and keeps the rest", async () => {
    const warned: { message: string; data?: Record<string, unknown> }[] = [];
    const logger = {
      debug: () => undefined,
      warn: (message: string, data?: Record<string, unknown>) => warned.push({ message, data }),
      error: () => undefined,
    };
    const chat = scriptedLlm(
      { summary: (who, text) => `${who} said: ${text.slice(0, 150)}` },
      { contextWindow: 4096 },
    );
    const mem = await testMemlane({ chat, strategy: "accumulate", logger });
    const huge = {
      speaker: "sam",
      text: `Here is the whole manual: ${"read the manual twice. ".repeat(2000)}`,
    };
    const transcript = longSession(3000, [huge]);
    assert.equal((await mem.ingest(transcript)).failed, 0);
    const op = (await mem.store.listOperations(mem.scope("ava"), { type: "SUMMARIZE" }))[0]!;
    const warnings = (op.outputs as { warnings?: StepWarning[] }).warnings;
    assert.equal(warnings?.length, 1);
    assert.equal(warnings![0]!.kind, "left-out");
    assert.equal(warnings![0]!.items, 1);
    assert.equal(warnings![0]!.step, "summarize");
    assert.ok(warned.some((w) => /left out 1 item/.test(w.message) && w.data?.step === "summarize"));
    const texts = (await mem.memories("ava")).map((m) => m.text);
    assert.ok(factsIn(texts).size > 0, "the other turns were summarized");
    assert.ok(!texts.some((t) => t.includes("manual")));
    await mem.close();
  });
});
