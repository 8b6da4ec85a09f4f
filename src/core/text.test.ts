/**
 * The word helpers every offline rule and the lexical ranker share, as tables: a change to the
 * stemmer or the tokenizer moves BM25 scores, frames and redaction at once.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  contentTokens,
  escapeRegExp,
  fnv1a,
  hasWordCharacter,
  namePattern,
  prefixAtWord,
  stem,
  termOverlap,
  tokenize,
} from "./text.js";

describe("stem", () => {
  const cases: [string, string][] = [
    ["cats", "cat"],
    ["stories", "story"],
    ["classes", "class"],
    ["kisses", "kiss"],
    ["bus", "bus"],
    ["analysis", "analysis"],
    ["adopted", "adopt"],
    ["adopting", "adopt"],
    ["adopt", "adopt"],
    ["running", "run"],
    ["hopped", "hop"],
    ["falling", "fall"],
    ["dance", "danc"],
    ["danced", "danc"],
    ["dancing", "danc"],
    ["happily", "happi"],
    ["free", "free"],
    ["hiking", "hik"],
    // Too short a stem would be left: "going" keeps its ending, short words are left alone.
    ["going", "going"],
    ["was", "was"],
  ];
  for (const [word, stemmed] of cases)
    test(`"${word}" stems to "${stemmed}"`, () => {
      assert.equal(stem(word), stemmed);
    });
});

describe("tokens", () => {
  test("tokenize lower-cases, folds apostrophes of both kinds and splits on anything not a letter or digit", () => {
    assert.deepEqual(tokenize("I'm José's friend — it’s 3pm!"), ["im", "josés", "friend", "its", "3pm"]);
    assert.deepEqual(tokenize("  "), []);
  });

  test("contentTokens drops stopwords and single letters", () => {
    assert.deepEqual(contentTokens("I'm going to the park with a dog, x"), ["park", "dog"]);
  });

  const overlaps: [string, string, number][] = [
    ["Sam adopted a dog", "Sam is adopting dogs", 1],
    ["Sam adopted a dog", "Sam bought a cat", 1 / 5],
    ["the", "a", 0],
    ["", "Sam", 0],
  ];
  for (const [a, b, overlap] of overlaps)
    test(`"${a}" and "${b}" overlap ${overlap}`, () => {
      assert.equal(termOverlap(a, b), overlap);
    });
});

describe("namePattern", () => {
  const cases: [name: string, text: string, found: boolean][] = [
    ["Sam", "I met Sam today", true],
    ["Sam", "Sam's dog", true],
    ["Sam", "I met Samuel", false],
    ["Sam", "i met sam", true], // case-insensitive by default
    ["José", "Josée came", false],
    ["José", "José came", true],
    ["Mary Ann", "with Mary Ann.", true],
    ["C++", "I code in C++ daily", true],
    ["", "anything at all", false],
    ["-", "a - b", false],
    ["'", "it's", false],
  ];
  for (const [name, text, found] of cases)
    test(`"${name}" is ${found ? "" : "not "}found in "${text}"`, () => {
      assert.equal(namePattern(name).test(text), found);
    });

  test("flags are kept, and the pattern is always unicode", () => {
    const p = namePattern("Sam", "g");
    assert.equal(p.flags, "gu");
    assert.equal("Sam and sam".replace(p, "X"), "X and sam");
  });

  test("escapeRegExp makes every special character literal", () => {
    // "$" and "{" are apart so the literal is not read as a template placeholder.
    const text = [".*+?^$", "{}()|[]\\"].join("");
    assert.ok(new RegExp(`^${escapeRegExp(text)}$`).test(text));
  });

  test("hasWordCharacter reads letters and digits of any script", () => {
    assert.deepEqual(["", " -'", "7", "é", "字"].map(hasWordCharacter), [false, false, true, true, true]);
  });
});

describe("prefixAtWord", () => {
  const cases: [text: string, chars: number, prefix: string][] = [
    ["short", 10, "short"],
    ["hello world foo", 15, "hello world foo"],
    ["hello world foo", 13, "hello world"],
    // The last space falls in the first half: cut hard rather than lose most of the prefix.
    ["a bcdefghijkl", 8, "a bcdefg"],
    ["abcdefghij klm", 12, "abcdefghij"],
  ];
  for (const [text, chars, prefix] of cases)
    test(`"${text}" cut at ${chars} is "${prefix}"`, () => {
      assert.equal(prefixAtWord(text, chars), prefix);
    });
});

describe("fnv1a", () => {
  const cases: [string, number][] = [
    ["", 0x811c9dc5],
    ["a", 0xe40c292c],
    ["foobar", 0xbf9cf968],
  ];
  for (const [text, hash] of cases)
    test(`"${text}" hashes to the FNV-1a reference value ${hash.toString(16)}`, () => {
      assert.equal(fnv1a(text), hash);
    });
});
