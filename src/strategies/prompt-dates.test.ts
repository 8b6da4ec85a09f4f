import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ChatMessage } from "../models/chat-model.js";
import { fuseStep } from "./carecall/steps/fuse.js";
import { questionStep } from "./creem/steps/question.js";
import { refineTimelineStep } from "./theanine/steps/refine-timeline.js";

const shown = (messages: ChatMessage[]) => messages.map((m) => m.content).join("\n");

describe("dates in the prompts that show dialogue or memories", () => {
  it("theanine's refinement reads the timeline against today's date", () => {
    const prompt = shown(
      refineTimelineStep.prompt({
        dialogue: "Sam: Is the fence done since last month?",
        timeline: [{ id: "m1", text: "Sam started building a fence.", at: "2024-03-01", relation: null }],
        at: "2024-04-10T09:00",
      }),
    );
    assert.match(prompt, /Today is 10 April 2024/);
    assert.match(prompt, /1 March 2024: Sam started building a fence/);
  });

  it("carecall's fusion shows when each statement was said", () => {
    const prompt = shown(
      fuseStep.prompt({
        about: "Sam",
        memory: "Sam's back hurts.",
        summary: "Sam sees a physiotherapist.",
        memoryAt: "2024-03-01",
        summaryAt: "2024-04-10",
      }),
    );
    assert.match(prompt, /Older \(1 March 2024\): Sam's back hurts/);
    assert.match(prompt, /Newer \(10 April 2024\): Sam sees a physiotherapist/);
  });

  it("creem's question shows the conversation's date", () => {
    const prompt = shown(
      questionStep.prompt({
        agent: "ava",
        partner: "sam",
        lines: [{ speaker: "sam", text: "I start the new job next week." }],
        at: "2024-04-10T09:00",
      }),
    );
    assert.match(prompt, /Conversation of 10 April 2024/);
  });
});
