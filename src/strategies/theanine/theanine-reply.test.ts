/**
 * Theanine as the paper runs it: the reply sees the refined timelines alone
 * (the raw top-k list beside them is an option), and relation-linking batches are bounded by
 * the length the prompt shows, so that a model with an 8K context can take each one.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Recall } from "../../core/recall.js";
import type { Session } from "../../core/types.js";
import { LINK_BATCH_CHARS, type LinkPair, linkRelationsStep } from "./steps/link-relations.js";
import { readLines, unrefinedLines } from "./steps/refine-timeline.js";
import { theanineStrategy } from "./theanine.js";

const scope = { tenant: "t", agent: "ava" };
const session = {
  id: "s9",
  at: "2024-05-01T10:00:00.000Z",
  partners: ["sam"],
  meta: {},
} as unknown as Session;
const recall: Recall = {
  strategy: "theanine",
  query: "how is the garden?",
  hits: [
    {
      id: "m2",
      kind: "memory",
      about: "sam",
      text: "Sam planted tomatoes in the new garden.",
      observedAt: "2024-04-01T10:00:00.000Z",
      score: 1,
    } as Recall["hits"][number],
  ],
  timelines: [
    {
      through: "m2",
      entries: [],
      refined: ["Sam moved to a house with a garden in March.", "In April Sam planted tomatoes there."],
    },
  ],
};

describe("theanine's reply and link batches", () => {
  it("shows the reply the timelines alone by default, the retrieved memories too with reply: mix", () => {
    const ctx = { scope, session, partner: "sam", dialogue: [] };
    const alone = theanineStrategy().compose(ctx, recall).system;
    assert.match(alone, /In April Sam planted tomatoes there\./);
    assert.doesNotMatch(alone, /Sam planted tomatoes in the new garden\./);
    assert.doesNotMatch(alone, /You remember nothing relevant/);
    const mixed = theanineStrategy({ reply: "mix" }).compose(ctx, recall).system;
    assert.match(mixed, /Sam planted tomatoes in the new garden\./);
    assert.match(mixed, /In April Sam planted tomatoes there\./);
  });

  it("reads a refinement written as a list; the fallback is the timeline as it was, one dated line per entry", () => {
    assert.deepEqual(readLines("- 3 Mar: Sam moved.\n- 1 Apr: Sam planted tomatoes."), {
      lines: ["3 Mar: Sam moved.", "1 Apr: Sam planted tomatoes."],
    });
    assert.deepEqual(readLines("Here you go:\n1. Sam moved.\n2) He planted tomatoes."), {
      lines: ["Sam moved.", "He planted tomatoes."],
    });
    assert.equal(readLines("I'm sorry, but I can't help with that request."), undefined);
    assert.equal(
      readLines('{"lines": ["a"'),
      undefined,
      "broken JSON is repaired or asked again, not read as prose",
    );
    const lines = unrefinedLines({
      dialogue: "",
      timeline: [
        { id: "m1", text: "Sam moved to a house.", at: "2024-03-01T10:00:00.000Z", relation: null },
        { id: "m2", text: "Sam planted tomatoes.", at: "2024-04-01T10:00:00.000Z", relation: "Cause" },
      ],
    });
    assert.equal(lines.length, 2);
    assert.match(lines[1]!, /\(Cause\): Sam planted tomatoes\.$/);
  });

  it("bounds a link batch by the characters it shows, keeping every pair once and in order", () => {
    const line = (n: number) => `line ${n} ${"of a long conversation about work and family ".repeat(5)}`;
    const pair = (i: number): LinkPair => ({
      older: {
        text: `Older memory ${i}: ${"details ".repeat(20)}`,
        at: "2024-01-01",
        source: [line(1), line(2), line(3)],
      },
      newer: {
        text: `Newer memory ${i}: ${"details ".repeat(20)}`,
        at: "2024-02-01",
        source: [line(4), line(5), line(6)],
      },
    });
    const input = { about: "sam", pairs: Array.from({ length: 40 }, (_, i) => pair(i)) };
    const batch = linkRelationsStep.batch!;
    const parts = batch.split(input, batch.size);
    assert.ok(parts.length > 1, `${parts.length} parts`);
    for (const part of parts) {
      const shown = linkRelationsStep.prompt(part).at(-1)!.content as string;
      assert.ok(shown.length <= LINK_BATCH_CHARS + 200, `a part shows ${shown.length} characters`);
    }
    assert.deepEqual(
      parts.flatMap((p) => p.pairs.map((x) => x.older.text)),
      input.pairs.map((x) => x.older.text),
    );
    // Short pairs still go 40 to a call.
    const short = {
      about: "sam",
      pairs: Array.from({ length: 80 }, (_, i) => ({
        older: { text: `a${i}`, at: "2024-01-01" },
        newer: { text: `b${i}`, at: "2024-02-01" },
      })),
    };
    assert.deepEqual(
      batch.split(short, batch.size).map((p) => p.pairs.length),
      [40, 40],
    );
  });
});
