import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { partnerLines, testMemlane } from "../fixtures/engine.js";

/** A model whose operator calls every pair REPLACE: only conversation time can stop a wrong one. */
const replacing = () =>
  scriptedLlm({
    summary: (name, text) => `${name} said: ${text}`,
    byName: {
      "carecall.classify-pairs": (messages) => {
        const user = messages.at(-1)!.content;
        const pairs = [...user.matchAll(/^(\d+)\. M/gm)].map((m) => ({
          pair: Number(m[1]),
          label: "REPLACE",
          why: "scripted",
        }));
        return JSON.stringify({ decisions: pairs });
      },
    },
  });

const session = (id: string, at: string, text: string) => partnerLines("ava", "sam", [[id, at, text]]);

describe("reliability: conversation time decides what is current", () => {
  it("never lets an older statement supersede a newer memory, across files and retries", async () => {
    const mem = await testMemlane({ chat: replacing(), cognition: "llm", strategy: "carecall" });
    await mem.ingest(
      session("april", "2024-04-20T10:00", "I live in Bristol now, in a flat near the harbour."),
    );
    // A later file brings an older session.
    await mem.ingest(session("march", "2024-03-02T10:00", "I live in Leeds, in a flat near the station."));
    const active = await mem.memories("ava");
    assert.deepEqual(
      active.map((m) => m.text),
      ["Sam said: I live in Bristol now, in a flat near the harbour."],
    );
    const all = await mem.memories("ava", { status: "any" });
    const leeds = all.find((m) => /Leeds/.test(m.text))!;
    assert.equal(leeds.status, "superseded", "the older statement is kept as history");
    assert.equal(leeds.invalidAt, "2024-04-20T10:00:00.000Z");
    const history = await mem.history("ava", leeds.id);
    assert.equal(history.replacedBy[0]?.text, active[0]!.text, "linked behind the newer memory");
    // A newer statement still replaces as usual.
    await mem.ingest(session("may", "2024-05-20T10:00", "I live in Cardiff now, since last week."));
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam said: I live in Cardiff now, since last week."],
    );
    // The model was told which sentence is older.
    await mem.close();
  });

  it("tells the operator the dates of both sentences", async () => {
    const model = replacing();
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy: "carecall" });
    await mem.ingest(session("april", "2024-04-20T10:00", "I live in Bristol now."));
    await mem.ingest(session("march", "2024-03-02T10:00", "I live in Leeds."));
    const asked = model.calls.find((c) => c.options.jsonSchema?.name.includes("classify"))!;
    assert.match(asked.messages.at(-1)!.content, /M \(20 April 2024\): .*\n {3}S \(2 March 2024\)/);
    await mem.close();
  });

  it("keeps an older session retried after a newer one succeeded behind the newer memory", async () => {
    let broken = true;
    const base = replacing();
    const model = scriptedLlm({
      summary: (name, text) => `${name} said: ${text}`,
      byName: {
        "carecall.classify-pairs": (messages, options) =>
          base.generate(messages, options).then((r) => r.text),
        summarize: (messages, options) =>
          broken && /Leeds/.test(messages.at(-1)!.content)
            ? "no json here"
            : scriptedLlm({ summary: (name, text) => `${name} said: ${text}` })
                .generate(messages, options)
                .then((r) => r.text),
      },
    });
    const mem = await testMemlane({ chat: model, cognition: "llm", strategy: "carecall", retries: 0 });
    await mem.ingest(
      partnerLines("ava", "sam", [
        ["march", "2024-03-02T10:00", "I live in Leeds."],
        ["april", "2024-04-20T10:00", "I live in Bristol now."],
      ]),
    );
    assert.equal((await mem.failures("ava")).length, 1, "the March session failed");
    broken = false;
    await mem.retry("ava");
    assert.deepEqual(
      (await mem.memories("ava")).map((m) => m.text),
      ["Sam said: I live in Bristol now."],
    );
    const leeds = (await mem.memories("ava", { status: "any" })).find((m) => /Leeds/.test(m.text));
    assert.equal(leeds?.status, "superseded");
    await mem.close();
  });
});
