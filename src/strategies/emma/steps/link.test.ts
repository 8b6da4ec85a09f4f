import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LlmCognition } from "../../../cognition/llm/llm-cognition.js";
import { estimateMessageTokens } from "../../../models/chat-model.js";
import { emmaScriptedSteps } from "../../../testing/emma-scripted.js";
import { scriptedLlm } from "../../../testing/scripted-llm.js";
import { type EmmaLinkInput, emmaLinkStep } from "./link.js";

const TOPICS = [
  "apple orchard",
  "bicycle repair",
  "cello lessons",
  "dentist appointment",
  "election volunteering",
  "ferry timetable",
  "garden shed",
  "hiking boots",
  "insurance claim",
  "jazz concert",
  "kitchen renovation",
  "laptop warranty",
];
const FILLER = ["quartz", "velvet", "walrus", "yonder", "zephyr", "tundra", "sonnet", "rhubarb"];

/** Twelve new memories, each with eight older ones on its shortlist, one of them on its topic. */
function input(): EmmaLinkInput {
  const fresh = TOPICS.map((t) => ({
    text: `Plans for the ${t} were made.`,
    about: "Sam",
    at: "2024-05-02",
    fresh: true,
  }));
  const older = TOPICS.flatMap((t, k) =>
    FILLER.map((f, j) => ({
      text:
        j === 0
          ? `Sam mentioned the ${t} back in winter, on a long walk past the old mill by the river bend with the dog.`
          : `A ${f} ${TOPICS[(k + j) % 12]!.split(" ")[0]}${j} remark about the long and winding road that went past the old mill by the river bend.`,
      about: "Sam",
      at: "2024-01-10",
      fresh: false,
    })),
  );
  const candidates = [
    ...fresh.flatMap((_, a) => fresh.flatMap((__, b) => (a < b ? [{ a, b }] : []))),
    ...fresh.flatMap((_, a) => FILLER.map((__, j) => ({ a, b: fresh.length + a * FILLER.length + j }))),
  ];
  return { memories: [...fresh, ...older], candidates, known: [] };
}

describe("emma.link sized to the model's window", () => {
  it("judges a list too long for a 4K window in parts, and finds what the whole list gives", async () => {
    const whole = await new LlmCognition(scriptedLlm({ byName: emmaScriptedSteps() })).run(
      emmaLinkStep,
      input(),
    );
    const chat = scriptedLlm({ byName: emmaScriptedSteps() }, { contextWindow: 4096 });
    const parts = await new LlmCognition(chat).run(emmaLinkStep, input());
    assert.ok(chat.calls.length > 1, `${chat.calls.length} calls`);
    for (const call of chat.calls) {
      const tokens = estimateMessageTokens(call.messages);
      // The engine keeps a quarter of the window for the answer.
      assert.ok(tokens <= 4096 - 1024, `a prompt of ${tokens} tokens`);
    }
    assert.ok(whole.value.length >= TOPICS.length, "every new memory finds its older one");
    assert.deepEqual(
      parts.value.map((p) => [p.a, p.b]),
      whole.value.map((p) => [p.a, p.b]),
    );
    assert.equal(parts.warnings, undefined);
  });
});
