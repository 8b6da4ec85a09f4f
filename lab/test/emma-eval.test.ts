import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { LlmCognition } from "../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { HashEmbedder } from "../../src/models/hash-embedder.js";
import { emmaScriptedSteps } from "../../src/testing/emma-scripted.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { emmaPart, loadEmmaEpisodes, parseEmmaEpisodes } from "../eval/emma/dataset.js";
import { emmaShares, evaluateEmma } from "../eval/emma/evaluate.js";
import { agreementAt, bestThreshold, emmaPairsPart, parseEmmaLinks } from "../eval/emma/links.js";

const EPISODES = new URL("../data/emma/episodes.json", import.meta.url).pathname;

describe("EMMA lab data", () => {
  it("holds at least 10 episodes of 6 sessions with 3 partners each, mixed and recurring", async () => {
    const episodes = await loadEmmaEpisodes(EPISODES);
    assert.ok(episodes.length >= 10);
    for (const e of episodes) {
      const partners = e.transcript.sessions.map((s) => s.partners[0]!);
      assert.equal(partners.length, 6, e.id);
      assert.equal(new Set(partners).size, 3, e.id);
      assert.ok(e.questions.length > 0 && e.questions.every((q) => q.goldTurns.length > 0 && q.person));
    }
    const parts = new Set(episodes.map((e) => e.part));
    assert.deepEqual([...parts].sort(), ["test", "tune"]);
    assert.equal(
      emmaPart("e01"),
      episodes.find((e) => e.id === "e01")!.part,
      "the split is a function of the id",
    );
  });

  it("refuses a gold turn that names nothing, with a typed error", () => {
    const bad = {
      episodes: [
        {
          id: "x",
          agent: "a",
          sessions: [{ id: "x-s1", at: "2024-01-01", partner: "b", turns: [["b", "hello"]] }],
          questions: [{ id: "q", askedBy: "b", ask: "?", gold: ["s1:5"] }],
        },
      ],
    };
    assert.throws(
      () => parseEmmaEpisodes(bad),
      (e: unknown) => e instanceof InvalidInputError && /names no turn/.test(e.message),
    );
  });

  it("splits the labelled pairs the same way and picks the threshold with the best accuracy", () => {
    const pairs = parseEmmaLinks(readFileSync(new URL("../data/emma/links.jsonl", import.meta.url), "utf8"));
    const tune = emmaPairsPart(pairs, "tune");
    const test = emmaPairsPart(pairs, "test");
    assert.equal(tune.length + test.length, pairs.length);
    const scored = [
      { id: "a", style: "s", score: 0.2, related: false },
      { id: "b", style: "s", score: 0.4, related: true },
      { id: "c", style: "s", score: 0.9, related: true },
    ];
    assert.equal(bestThreshold(scored), 0.25);
    assert.equal(agreementAt(scored, 0.5).accuracy, 2 / 3);
  });
});

describe("eval emma", () => {
  it("scores hit@1, hit@1 + links, hit@k and the wrong-person rate per strategy", async () => {
    const [episode] = (await loadEmmaEpisodes(EPISODES)).filter((e) => e.id === "e03");
    const embedder = new HashEmbedder();
    const report = await evaluateEmma([episode!], {
      embedder,
      cognition: () => new OfflineCognition(embedder),
      strategies: ["emma", "carecall"],
      k: 5,
    });
    assert.equal(report.records.length, 2 * episode!.questions.length);
    for (const s of ["emma", "carecall"]) {
      const x = emmaShares(report.records.filter((r) => r.strategy === s));
      assert.ok(x.hit1 <= x.hitK, "top 1 is inside top k");
      assert.ok(x.hit1 <= x.hit1Linked);
    }
    // A record's wrong-person flag agrees with its top memory's subject.
    for (const r of report.records)
      if (r.top) {
        const q = episode!.questions.find((x) => x.id === r.question)!;
        assert.equal(r.wrongPerson, r.top.about !== q.person);
      }
    assert.ok(report.memories.emma!.aboutAgent > 0 && report.memories.emma!.aboutPartners > 0);
  });

  it("scores known answers: a hit from a gold turn, a miss that names the wrong person", async () => {
    const [episode] = parseEmmaEpisodes({
      episodes: [
        {
          id: "x1",
          agent: "mara",
          sessions: [
            {
              id: "s1",
              at: "2024-01-01",
              partner: "joel",
              turns: [["joel", "I failed the chemistry mock exam."]],
            },
            {
              id: "s2",
              at: "2024-01-08",
              partner: "ines",
              turns: [["ines", "I bought a red bicycle in town."]],
            },
            { id: "s3", at: "2024-01-15", partner: "joel", turns: [["joel", "Hello again."]] },
          ],
          questions: [
            { id: "q1", askedBy: "joel", ask: "What did Ines buy, a red bicycle?", gold: ["s2:0"] },
            { id: "q2", askedBy: "ines", ask: "Did Joel fail the chemistry mock exam?", gold: ["s2:0"] },
          ],
        },
      ],
    });
    const embedder = new HashEmbedder();
    const report = await evaluateEmma([episode!], {
      embedder,
      cognition: () => new LlmCognition(scriptedLlm({ byName: emmaScriptedSteps() })),
      strategies: ["emma"],
      k: 1,
      emma: { hops: 0 },
    });
    const byQ = new Map(report.records.map((r) => [r.question, r]));
    assert.equal(byQ.get("q1")!.hit1, true);
    assert.equal(byQ.get("q1")!.wrongPerson, false);
    assert.equal(byQ.get("q1")!.top?.about, "ines");
    // q2's words find Joel's memory, but the gold (by construction) is what Ines said.
    assert.equal(byQ.get("q2")!.hit1, false);
    assert.equal(byQ.get("q2")!.hitK, false);
    assert.equal(byQ.get("q2")!.wrongPerson, true);
    assert.equal(byQ.get("q2")!.misattributed, false, "a miss is not a misattributed hit");
    assert.equal(report.cost.emma!.usage.calls, 5, "a summary a session, a link call from the second on");
  });
});
