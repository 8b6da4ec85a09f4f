/**
 * CareCall's all-pairs ablation: `candidates: "all"` puts every (memory, summary sentence) pair
 * of a subject to the operator, as the paper's O(m, s) does; the default compares each sentence
 * with its five most similar memories above a cosine floor only.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { partnerLines, testMemlane } from "../../../test/fixtures/engine.js";
import { validateTranscript } from "../../engine/ingest/formats/transcript.js";
import { scriptedLlm } from "../../testing/scripted-llm.js";
import { carecallStrategy } from "./carecall.js";

// Session 1 states eight things; session 2 says the home changed in words that share none of
// the old memory's (hash vectors near 0 cosine), so only an all-pairs comparison sees it.
const transcript = validateTranscript(
  partnerLines("ava", "sam", [
    [
      "s1",
      "2024-03-01",
      "Leeds is home. Biscuit is a beagle. Chess on Sundays. Nurse by trade. Tea not coffee. Violin lessons. Allergic to cats. Twin sister Jo.",
    ],
    ["s2", "2024-04-01", "Bristol these days."],
  ]),
);

function model() {
  return scriptedLlm({
    byName: {
      summarize(messages) {
        const user = messages.at(-1)!.content;
        const statements = [...user.matchAll(/^\[(\d+)\] Sam: (.*)$/gm)].flatMap((m) =>
          m[2]!.split(/(?<=\.) /).map((text) => ({ about: "sam", text, turns: [Number(m[1])] })),
        );
        return JSON.stringify({ statements });
      },
    },
    pairLabel: (memory, summary) => (/Leeds/.test(memory) && /Bristol/.test(summary) ? "REPLACE" : "APPEND"),
  });
}

async function run(candidates: "top5" | "all") {
  const chat = model();
  const mem = await testMemlane({ chat, strategy: carecallStrategy({ candidates }) });
  await mem.ingest(transcript);
  const all = await mem.memories("ava", { status: "any" });
  const ops = await mem.store.listOperations(mem.scope("ava"));
  const classified = ops
    .filter((o) => o.type === "CLASSIFY")
    .reduce((n, o) => n + Number((o.inputs as { pairs: number }).pairs), 0);
  const leeds = all.find((m) => m.text === "Leeds is home.")!;
  await mem.close();
  return { classified, leeds: leeds.status, memories: all.length };
}

describe("carecall candidates", () => {
  it("top5 (default) compares only similar memories: the dissimilar old home stays active", async () => {
    const r = await run("top5");
    assert.equal(r.memories, 9);
    assert.ok(r.classified <= 5, `at most five pairs, got ${r.classified}`);
    assert.equal(r.leeds, "active");
  });

  it("all compares every pair of the subject and catches the replacement", async () => {
    const r = await run("all");
    assert.equal(r.classified, 8, "eight memories x one new sentence");
    assert.equal(r.leeds, "superseded");
  });

  it("refuses a candidates value it does not know", () => {
    assert.throws(() => carecallStrategy({ candidates: 0 }), /candidates/);
  });
});
