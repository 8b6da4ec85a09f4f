import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Bm25Index } from "../../src/retrieval/bm25.js";
import { bm25Terms, bm25Tokens } from "../../src/retrieval/bm25-terms.js";
import { porterStem } from "../../src/retrieval/porter-stemmer.js";

describe("Porter stemmer", () => {
  it("gives the published stems of Porter's own examples", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      hopping: "hop",
      falling: "fall",
      filing: "file",
      happy: "happi",
      relational: "relat",
      conditional: "condit",
      digitizer: "digit",
      triplicate: "triplic",
      hopeful: "hope",
      goodness: "good",
      revival: "reviv",
      adjustment: "adjust",
      adoption: "adopt",
      probate: "probat",
      controll: "control",
      generalizations: "gener",
    };
    for (const [word, stem] of Object.entries(cases)) assert.equal(porterStem(word), stem, word);
  });

  it("joins singular and plural where the light stemmer did not", () => {
    assert.equal(porterStem("movies"), porterStem("movie"));
    assert.equal(porterStem("cookies"), porterStem("cookie"));
    assert.equal(porterStem("painting"), porterStem("paintings"));
    assert.equal(porterStem("adopted"), porterStem("adopting"));
  });
});

describe("BM25 terms", () => {
  it("keeps numbers, single digits included, and drops a possessive 's", () => {
    assert.deepEqual(bm25Tokens("Melanie's 3 kids ran a 5K in 2022"), [
      "melanie",
      "3",
      "kids",
      "ran",
      "a",
      "5k",
      "in",
      "2022",
    ]);
    assert.deepEqual(bm25Terms("Melanie's kids"), bm25Terms("Melanie kids"));
  });

  it("drops function words but keeps content words a chat stop list would lose", () => {
    const t = bm25Terms("What did she like? She was ill, signed up and worked out. Well water, own store.");
    for (const kept of ["like", "ill", "up", "out", "well", "own"]) assert.ok(t.includes(kept), kept);
    for (const dropped of ["what", "did", "she", "was", "and"]) assert.ok(!t.includes(dropped), dropped);
  });
});

describe("BM25 scoring", () => {
  it("scores as Lucene does: idf = ln(1 + (N - df + 0.5) / (df + 0.5)), k1 1.2, b 0.75", () => {
    const index = new Bm25Index();
    index.add("a", "pottery class");
    index.add("b", "dance class tonight");
    index.add("c", "garden");
    const scores = index.scores("pottery");
    const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const average = (2 + 3 + 1) / 3;
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 2) / average));
    assert.ok(Math.abs(scores.get(0)! - expected) < 1e-12);
    assert.equal(scores.size, 1);
  });

  it("finds a turn by a number or a plural its question does not share verbatim", () => {
    const index = new Bm25Index();
    index.add("x", "We have 3 kids and a dog.");
    index.add("y", "I love watching movies with friends.");
    index.add("z", "Kids love dogs.");
    assert.equal(index.search("How many kids, 3?", 1)[0]!.id, "x");
    assert.equal(index.search("What movie did they watch?", 1)[0]!.id, "y");
  });
});
