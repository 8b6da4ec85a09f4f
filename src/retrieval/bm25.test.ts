import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../core/memory-graph.js";
import { Bm25Index } from "./bm25.js";
import { bm25Terms, bm25Tokens } from "./bm25-terms.js";
import { porterStem } from "./porter-stemmer.js";
import { TopK } from "./top-k.js";

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

describe("BM25 top k", () => {
  it("narrows on common terms and still answers as a full reading does", () => {
    const random = seededRandom(3);
    // Zipf-like words: a few in most documents, many rare ones.
    const words = Array.from({ length: 400 }, (_, i) => `w${i}x`);
    const word = () => words[Math.min(words.length - 1, Math.floor(1 / (random() + 0.0025)) - 1)]!;
    const sentence = (n: number) => Array.from({ length: n }, word).join(" ");
    const index = new Bm25Index();
    const texts: string[] = [];
    for (let i = 0; i < 4000; i++) texts.push(sentence(3 + Math.floor(random() * 12)));
    for (const [i, t] of texts.entries()) index.add(`d${i}`, t);
    // Replaced and removed documents: postings must stay in document order.
    for (let i = 0; i < 200; i++) {
      const doc = Math.floor(random() * texts.length);
      if (i % 3) {
        const text = sentence(6);
        index.replace(doc, texts[doc]!, text);
        texts[doc] = text;
      } else index.remove(doc, texts[doc]!);
    }
    const narrowed = spyOn(Bm25Index.prototype, "addTo");
    const floors = [
      undefined,
      (best: number) => Math.max(0.1 * best, 0.2 + 1e-12),
      (best: number) => 0.5 * best,
    ];
    for (let q = 0; q < 60; q++) {
      const query = sentence(2 + (q % 20));
      const admitted = q % 4 ? undefined : Uint8Array.from(texts, (_, i) => (i % 3 ? 1 : 0));
      for (const k of [1, 10, 100]) {
        const floor = floors[q % floors.length];
        const scores = index.scores(query, admitted);
        const best = Math.max(0, ...scores.values());
        const expected = TopK.of(scores, k, floor ? floor(best) : Number.NEGATIVE_INFINITY);
        assert.deepEqual(index.top(query, k, { admitted, floor }), expected, `${query} (k = ${k})`);
      }
    }
    assert.ok(narrowed.calls > 20, `narrowed ${narrowed.calls} times`);
    narrowed.restore();
  });
});

describe("BM25 kept state", () => {
  it("scores as the formula does after documents come and go, with indexes of any size searched in turn", () => {
    const random = seededRandom(5);
    const words = Array.from({ length: 40 }, (_, i) => `v${i}x`);
    const sentence = (n = 2 + Math.floor(random() * 14)) =>
      Array.from({ length: n }, () => words[Math.floor(random() * 40)]!).join(" ");
    const big = new Bm25Index();
    const small = new Bm25Index();
    const held = { big: new Map<number, string>(), small: new Map<number, string>() };
    const add = (name: "big" | "small", index: Bm25Index) => {
      const text = sentence();
      held[name].set(index.add(`${name}${held[name].size}`, text), text);
    };
    for (let i = 0; i < 3000; i++) add("big", big);
    for (let i = 0; i < 5; i++) add("small", small);
    const replace = (doc: number, text: string) => {
      big.replace(doc, held.big.get(doc)!, text);
      held.big.set(doc, text);
    };
    for (let round = 0; round < 30; round++) {
      if (round % 3 === 0) add("small", small);
      const docs = [...held.big.keys()];
      const doc = docs[Math.floor(random() * docs.length)]!;
      if (round % 3 === 1) {
        big.remove(doc, held.big.get(doc)!);
        held.big.delete(doc);
      } else if (round % 3 === 2) {
        // Two documents swap lengths: the average stays the same, their norms do not.
        const other = docs.find(
          (d) => d !== doc && bm25Terms(held.big.get(d)!).length !== bm25Terms(held.big.get(doc)!).length,
        )!;
        const [a, b] = [bm25Terms(held.big.get(doc)!).length, bm25Terms(held.big.get(other)!).length];
        replace(doc, sentence(b));
        replace(other, sentence(a));
      } else replace(doc, sentence());
      for (const [index, texts] of [
        [big, held.big],
        [small, held.small],
      ] as const) {
        const query = sentence();
        const expected = formula(texts, query);
        const got = new Map(index.scores(query));
        assert.equal(got.size, expected.size, query);
        for (const [d, score] of expected)
          assert.ok(Math.abs(got.get(d)! - score) < 1e-9, `document ${d} for ${query}`);
        const best = [...expected.values()].sort((x, y) => y - x).slice(0, 10);
        const top = index.top(query, 10).map((x) => x.score);
        assert.ok(
          top.every((x, i) => Math.abs(x - best[i]!) < 1e-9),
          `top 10 for ${query}`,
        );
      }
    }
  });
});

describe("BM25 kept state, exact cases", () => {
  it("scores a document added at exactly the average length (the average does not move)", () => {
    const index = new Bm25Index();
    const texts = new Map<number, string>();
    for (const text of ["alpha beta", "gamma delta alpha beta"]) texts.set(index.add(text, text), text);
    assert.ok(index.scores("alpha").size === 2);
    // Lengths 2 and 4: average 3. A third document of length 3 keeps it at 3.
    texts.set(index.add("third", "alpha kappa lambda"), "alpha kappa lambda");
    const expected = formula(texts, "alpha");
    const got = index.scores("alpha");
    for (const [doc, score] of expected)
      assert.ok(Math.abs(got.get(doc)! - score) < 1e-12, `document ${doc}`);
  });
});

/** BM25 of every document by number, from the formula (Lucene's idf, k1 1.2, b 0.75): the reference. */
function formula(texts: Map<number, string>, query: string): Map<number, number> {
  const terms = new Map([...texts].map(([doc, text]) => [doc, bm25Terms(text)]));
  const n = terms.size;
  const average = [...terms.values()].reduce((a, t) => a + t.length, 0) / n;
  const out = new Map<number, number>();
  for (const q of new Set(bm25Terms(query))) {
    const df = [...terms.values()].filter((t) => t.includes(q)).length;
    if (!df) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [doc, t] of terms) {
      const f = t.filter((x) => x === q).length;
      if (f)
        out.set(
          doc,
          (out.get(doc) ?? 0) + (idf * f * 2.2) / (f + 1.2 * (1 - 0.75 + (0.75 * t.length) / average)),
        );
    }
  }
  return out;
}

/** Counts calls of a prototype's method (private ones included) until restored. */
function spyOn(proto: object, name: string): { calls: number; restore(): void } {
  const target = proto as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name]!;
  const spy = {
    calls: 0,
    restore: () => {
      target[name] = original;
    },
  };
  target[name] = function (this: unknown, ...args: unknown[]) {
    spy.calls++;
    return original.apply(this, args);
  };
  return spy;
}
