import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { validateTranscript } from "../../src/engine/ingest/formats/transcript.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { partnerLines } from "../../test/fixtures/engine.js";
import { consistencyMarkdown, evaluateConsistency } from "../eval/consistency/evaluate.js";
import { evaluateTyping, parseTypingJsonl, splitOf, typingMarkdown } from "../eval/creem/typing.js";

const story = validateTranscript(
  partnerLines("ava", "sam", [
    ["s1", "2024-03-01T10:00", "I live in Leeds with my dog Biscuit."],
    ["s2", "2024-04-01T10:00", "I moved to Bristol last week."],
    ["s3", "2024-05-01T10:00", "I live in Leeds with my dog Biscuit."],
  ]),
);

describe("eval consistency and creem-typing", () => {
  it("counts active memories per session, near-duplicates and judged pairs per strategy", async () => {
    const embedder = new HashEmbedder();
    const rows = await evaluateConsistency([story], ["accumulate", "carecall"], {
      embedder,
      cognition: () => new OfflineCognition(embedder),
    });
    const accumulate = rows.find((r) => r.strategy === "accumulate")!;
    assert.equal(accumulate.activeBySession.length, 3);
    assert.ok(accumulate.activeBySession[2]! >= accumulate.activeBySession[0]!, "accumulate only grows");
    assert.ok(accumulate.duplicates >= 1, "the repeated statement is a near-duplicate");
    assert.ok(accumulate.pairs >= 3);
    assert.match(consistencyMarkdown(rows), /not an NLI model/);
  });

  it("scores typing per split, type and style", async () => {
    const lines = [
      {
        id: "t1",
        style: "named",
        about: "maya",
        memories: ["Maya has a cat called Pixel."],
        insight: "Maya bought a red bicycle.",
        type: "New",
        retires: [],
      },
      {
        id: "t2",
        style: "named",
        about: "maya",
        memories: ["Maya has a cat called Pixel."],
        insight: "Maya has a cat called Pixel.",
        type: "Redundant",
        retires: [1],
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n");
    const examples = parseTypingJsonl(lines, "inline");
    assert.deepEqual(
      examples.map((e) => splitOf(e.id)),
      ["tune", "test"],
    );
    const report = await evaluateTyping(examples, new HashEmbedder());
    assert.equal(report.splits.all!.all.n, 2);
    assert.equal(report.splits.test!.byType.Redundant!.type, 1, "an identical sentence is Redundant");
    assert.match(typingMarkdown(report), /type \+ retired set/);
  });
});
