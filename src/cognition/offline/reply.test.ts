/** The offline reply: what it says from recalled memories, one line per thing told. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecallHit } from "../../core/recall.js";
import { memory } from "../../testing/rows.js";
import { replyOffline } from "./reply.js";

const scope = { tenant: "t", agent: "ava" };
const SAID = "I ran the Bristol half marathon yesterday and finished in 1 hour 58 minutes.";

function hit(text: string, quote: string, score: number): RecallHit {
  const m = memory(scope, text, { attributes: { quote }, observedAt: "2024-05-20T10:00:00.000Z" });
  return {
    kind: "memory",
    id: m.id,
    text,
    about: "sam",
    score,
    observedAt: m.observedAt,
    sessionId: null,
    sourceTurns: [],
    explanation: {},
    memory: m,
  };
}

describe("offline reply", () => {
  it("quotes a sentence once when two memories were drawn from it, and tells the next one instead", () => {
    const text = replyOffline({
      agent: "ava",
      partner: "sam",
      at: "2024-05-27T10:00:00.000Z",
      dialogue: [],
      prompt: { system: "", messages: [] },
      recall: {
        strategy: "carecall",
        query: "How did Sam do in the half marathon?",
        hits: [
          hit("Sam ran the Bristol half marathon on 19 May 2024.", SAID, 1),
          hit("Sam finished the half marathon in 1 hour 58 minutes.", SAID, 0.9),
          hit(
            "Sam trained for the half marathon all spring.",
            "I train for the half marathon every day.",
            0.8,
          ),
        ],
      },
    });
    const lines = text.split("\n").filter((l) => l.startsWith("- "));
    assert.equal(lines.length, 2, text);
    assert.equal(new Set(lines).size, lines.length, "no line twice");
    assert.match(text, /every day/);
  });
});

describe("offline reply and the past", () => {
  it("says in words that a past memory stopped holding, when, and what holds now", () => {
    const past = memory(scope, "Sam has a nasty cold.", {
      observedAt: "2024-03-01T10:00:00.000Z",
      status: "superseded",
      invalidAt: "2024-03-12T10:00:00.000Z",
    });
    const now = memory(scope, "Sam's cold is over.", { observedAt: "2024-03-12T10:00:00.000Z" });
    const chain = [
      {
        id: past.id,
        text: past.text,
        observedAt: past.observedAt,
        invalidAt: "2024-03-12T10:00:00.000Z",
        status: "past" as const,
        replacedBy: [now.id],
      },
      { id: now.id, text: now.text, observedAt: now.observedAt, status: "current" as const },
    ];
    const asHit = (m: typeof past, status: "current" | "past", score: number): RecallHit => ({
      kind: "memory",
      id: m.id,
      text: m.text,
      about: "sam",
      score,
      observedAt: m.observedAt,
      sessionId: null,
      sourceTurns: [],
      explanation: {},
      status,
      chain,
      memory: m,
    });
    const text = replyOffline({
      agent: "ava",
      partner: "sam",
      at: "2024-04-02T10:00:00.000Z",
      dialogue: [],
      prompt: { system: "", messages: [] },
      recall: {
        strategy: "carecall",
        query: "Do you still have that cold?",
        temporal: "still",
        hits: [asHit(past, "past", 1), asHit(now, "current", 0.9)],
      },
    });
    assert.match(
      text,
      /you have a nasty cold\. As far as I remember, that held until 12 March 2024; now: your cold is over\./,
      text,
    );
    assert.doesNotMatch(text, /your cold is over\. As far as I remember/, "what holds now is told plainly");
  });
});
