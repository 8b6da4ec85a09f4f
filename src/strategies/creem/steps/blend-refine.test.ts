/** The offline Blend & Refine step: which of a turn's statements become its n insights. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HashEmbedder } from "../../../models/hash-embedder.js";
import { blendRefineStep, MAX_INSIGHTS } from "./blend-refine.js";

describe("creem blend & refine, offline", () => {
  it("keeps both halves of a change among its n insights before a new fact that scores higher", async () => {
    // The choir and the friends score higher than either half of the change.
    const text =
      "Big family news: we sold the Laser and bought a Wayfarer. Also my son Tom got into the Oakham school choir with his friends Ben and Joe, which means a LOT of carols this winter, he loves it.";
    const insights = await blendRefineStep.offline(
      {
        agent: "ava",
        people: ["ava", "ros"],
        at: "2024-05-01T10:00:00Z",
        sessionId: "s2",
        recent: [
          {
            id: "s2:1",
            tenant: "t",
            agent: "ava",
            sessionId: "s2",
            index: 0,
            speaker: "ros",
            text,
            at: "2024-05-01T10:00:00Z",
            meta: {},
          },
        ],
        dialogue: [],
        retrieved: [
          { n: 1, about: "ros", text: "Ros keeps a little Laser dinghy at Rutland Water.", at: "2024-03-01" },
        ],
      },
      { embedder: new HashEmbedder(64) },
    );
    assert.equal(insights.length, MAX_INSIGHTS);
    const texts = insights.map((i) => i.text).join(" | ");
    assert.match(texts, /sold the Laser/);
    assert.match(texts, /bought a Wayfarer/);
  });
});
