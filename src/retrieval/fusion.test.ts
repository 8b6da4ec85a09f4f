import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../core/memory-graph.js";
import { FUSION_WEIGHTS, type FusionInput, fuseRrf, fuseScaled, RRF_K, topScaled } from "./fusion.js";

const w = {
  dense: 1,
  bm25: 1,
  subject: 0.5,
  time: 0.25,
  dated: 0.3,
  recency: 0.2,
  source: 1,
  neighbour: 0.5,
};

describe("fusion", () => {
  it("scales each signal by its best value for the query, so units do not decide", () => {
    const fused = fuseScaled(
      {
        dense: [
          { doc: 0, score: 0.8 },
          { doc: 1, score: 0.4 },
        ],
        lexical: [{ doc: 1, score: 12 }],
      },
      { ...w, neighbour: 0 },
    );
    assert.equal(fused.get(0)!.score, 1);
    assert.equal(fused.get(1)!.score, 1.5);
    assert.deepEqual(fused.get(1), { dense: 0.4, bm25: 12, score: 1.5 });
  });

  it("takes the question penalty off a unit that asks, and adds the length prior, explained", () => {
    const input = {
      dense: [
        { doc: 0, score: 0.5 },
        { doc: 1, score: 0.5 },
      ],
      lexical: [],
      asks: (doc: number) => doc === 0,
      length: (doc: number) => (doc === 0 ? 20 : 200),
    };
    const fused = fuseScaled(input, { ...w, question: 0.3, length: 0.05 });
    assert.equal(fused.get(0)!.question, -0.3);
    assert.ok(Math.abs(fused.get(0)!.score! - (1 - 0.3 + 0.05 * Math.log1p(20))) < 1e-12);
    assert.ok(Math.abs(fused.get(1)!.length! - 0.05 * Math.log1p(200)) < 1e-12);
    assert.equal(fused.get(1)!.question, undefined);
    // Weights without them (memories, or weights written before they existed): nothing changes.
    const plain = fuseScaled(input, w);
    assert.deepEqual(plain.get(0), { dense: 0.5, score: 1 });
  });

  it("adds the subject and asked-time bonuses and says so in the explanation", () => {
    const fused = fuseScaled(
      {
        dense: [
          { doc: 0, score: 0.5 },
          { doc: 1, score: 0.5 },
        ],
        lexical: [],
        subject: (doc) => doc === 1,
        time: (doc) => doc === 1,
      },
      w,
    );
    assert.equal(fused.get(0)!.score, 1);
    assert.equal(fused.get(1)!.score, 1.75);
    assert.equal(fused.get(1)!.subject, 0.5);
    assert.equal(fused.get(1)!.time, 0.25);
    assert.equal(fused.get(0)!.subject, undefined);
  });

  it("gives neighbours a share of the best linked content score, bringing in units no ranker found", () => {
    const fused = fuseScaled(
      {
        dense: [{ doc: 0, score: 0.9 }],
        lexical: [{ doc: 0, score: 3 }],
        neighbours: (doc) => (doc === 0 ? [7] : []),
      },
      w,
    );
    assert.equal(fused.get(7)!.neighbour, 1);
    assert.equal(fused.get(7)!.score, 1);
    assert.equal(fused.get(0)!.neighbour, undefined, "a unit does not feed itself");
  });

  it("topScaled gives fuseScaled's k best, explained alike, with ties to the lower unit", () => {
    const random = seededRandom(5);
    for (let round = 0; round < 40; round++) {
      const n = 60;
      const pick = (share: number) =>
        Array.from({ length: n }, (_, doc) => doc).filter(() => random() < share);
      // Scores from a few values, so ties are common.
      const level = () => Math.floor(random() * 4) / 4;
      const input: FusionInput = {
        dense: pick(0.5).map((doc) => ({ doc, score: level() - 0.25 })),
        lexical: pick(0.3).map((doc) => ({ doc, score: 1 + 3 * level() })),
        source: pick(0.2).map((doc) => ({ doc, score: level() })),
        subject: (doc) => doc % 3 === 0,
        time: (doc) => doc % 5 === 0,
        dated: (doc) => doc % 7 === 0,
        recency: (doc) => doc / n,
        neighbours: (doc) => [doc - 1, doc + 1].filter((x) => x >= 0 && x < n),
        asks: (doc) => doc % 4 === 0,
        length: (doc) => 10 + (doc % 6) * 20,
      };
      const weights = { ...FUSION_WEIGHTS, source: round % 2 ? 1 : 0 };
      const keep = round % 3 ? undefined : (doc: number) => doc % 2 === 1;
      const k = 1 + (round % 12);
      const all = [...fuseScaled(input, weights)]
        .filter(([doc]) => !keep || keep(doc))
        .sort(([a, x], [b, y]) => y.score! - x.score! || a - b)
        .slice(0, k);
      const top = topScaled(input, weights, k, keep);
      // Same units, same order, same explanation keys in the same order, same bits.
      assert.equal(
        JSON.stringify(top.map((t) => [t.doc, t.explanation])),
        JSON.stringify(all),
        `round ${round}`,
      );
    }
  });

  it("reciprocal rank fusion lets tied scores share a rank", () => {
    const fused = fuseRrf({
      dense: [
        { doc: 0, score: 0.5 },
        { doc: 1, score: 0.5 },
        { doc: 2, score: 0.1 },
      ],
      lexical: [],
    });
    assert.equal(fused.get(0)!.score, fused.get(1)!.score);
    assert.ok(Math.abs(fused.get(2)!.score! - 1 / (RRF_K + 3)) < 1e-12);
  });
});
