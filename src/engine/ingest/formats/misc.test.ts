import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { testMemlane } from "../../../../test/fixtures/engine.js";
import { InvalidInputError } from "../../../core/errors.js";
import { isMisc, MISC_START, parseMiscText, readMisc } from "./misc.js";

const sample = readFileSync(new URL("../../../../lab/data/emma/misc-sample.jsonl", import.meta.url), "utf8");

describe("MiSC reader", () => {
  it("reads a MiSC-shaped JSONL episode: main speaker as agent, one partner a session, a week apart", () => {
    const [t] = parseMiscText(sample, "sample");
    assert.equal(t!.agent, "layla");
    assert.deepEqual(
      t!.sessions.map((s) => s.partners[0]),
      ["mike", "sammy", "dr-ortiz", "sammy", "mike", "sammy"],
    );
    assert.equal(t!.sessions[0]!.at, MISC_START);
    assert.equal(Date.parse(t!.sessions[1]!.at) - Date.parse(t!.sessions[0]!.at), 7 * 86_400_000);
    assert.deepEqual(
      t!.sessions[2]!.turns.map((x) => x.speaker),
      ["dr-ortiz", "layla", "dr-ortiz", "layla"],
    );
    assert.equal(t!.sessions[0]!.turns[0]!.id, "misc-sample-1-s1-t0");
    assert.equal((t!.sessions[0]!.meta.misc as { episode: string }).episode, "misc-sample-1");
    assert.ok(isMisc(JSON.parse(sample.trim())));
  });

  it("takes the other shapes a session may have, and finds the main speaker without the field", () => {
    const [t] = readMisc({
      first_session_dialogue: [
        { speaker: "Ann", text: "Hi Bo." },
        { speaker: "Bo", text: "Hi Ann." },
      ],
      second_session_dialogue: ["Hello Bo.", "Hi Cy."],
      second_session_speakers: ["Cy", "Bo"],
    });
    assert.equal(t!.agent, "bo", "the one speaker in every session");
    assert.deepEqual(
      t!.sessions.map((s) => s.partners),
      [["ann"], ["cy"]],
    );
  });

  it("keeps every other field: a session's own in that session's meta, the episode's in each", () => {
    const [t] = readMisc({
      dataID: "k",
      main_speaker: "Bo",
      relationship: "neighbours",
      first_session_dialogue: [
        ["Ann", "Bo"],
        ["Hi Bo.", "Hi Ann."],
      ],
      first_session_memory: ["Ann said hi."],
      second_session_dialogue: [
        ["Cy", "Bo"],
        ["Hello Bo.", "Hi Cy."],
      ],
      second_session_link: [[0, 1]],
    });
    const misc = t!.sessions.map((s) => s.meta.misc as Record<string, unknown>);
    assert.deepEqual(misc[0]!.memory, ["Ann said hi."]);
    assert.equal(misc[0]!.link, undefined, "the second session's links stay with it");
    assert.deepEqual(misc[1]!.link, [[0, 1]]);
    assert.ok(misc.every((m) => m.relationship === "neighbours"));
    assert.ok(misc.every((m) => !Object.keys(m).some((k) => /_session_/.test(k))));
  });

  it("refuses malformed episodes with a typed error naming the place", () => {
    assert.throws(
      () => readMisc({ dataID: "x", main_speaker: "A", first_session_dialogue: [["A", "B"], ["only one"]] }),
      (e: unknown) =>
        e instanceof InvalidInputError &&
        /episode x, first session: 2 speakers but 1 utterances/.test(e.message),
    );
    assert.throws(() => readMisc({ dataID: "y", speaker_list: ["A"] }), /has no session dialogue/);
    assert.throws(() => parseMiscText("{not json\n", "f"), /f line 1 is not JSON/);
  });

  it("ingests into the emma strategy: memories about the agent and the partners", async (t) => {
    const mem = await testMemlane({ strategy: "emma" });
    t.after(() => mem.close());
    const [episode] = parseMiscText(sample);
    const report = await mem.ingest(episode);
    assert.equal(report.ingested, 6);
    const about = new Set((await mem.memories("layla")).map((m) => m.about));
    assert.ok(about.has("layla") && about.has("sammy"));
  });
});
