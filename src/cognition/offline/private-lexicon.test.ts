/**
 * The privacy reader's word lookup: a word's lemmas (irregular past forms, plural and tense
 * endings, adverbs), and the classes, verbs of telling and secrecy words found through them.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { classesOf, lemmas, wordInfo } from "./private-lexicon.js";

describe("lemmas", () => {
  const cases: [word: string, lemmas: string[]][] = [
    ["told", ["told", "tell", "tol"]],
    ["kept", ["kept", "keep"]],
    ["tells", ["tells", "tell"]],
    ["doctors", ["doctors", "doctor"]],
    ["stories", ["stories", "story", "stori", "storie"]],
    ["hoped", ["hoped", "hop", "hope", "hope"]],
    ["stopped", ["stopped", "stopp", "stoppe", "stoppe", "stop"]],
    ["running", ["running", "runn", "runne", "run"]],
    ["talkin", ["talkin", "talk", "talke"]],
    ["secretly", ["secretly", "secret"]],
    ["medically", ["medically", "medical", "medical"]],
    // Too short for a suffix to be stripped, or an irregular form not listed.
    ["is", ["is"]],
    ["sad", ["sad"]],
    ["hid", ["hid"]],
  ];
  for (const [word, expected] of cases)
    test(`"${word}" may come from ${expected.slice(1).join(", ") || "itself only"}`, () => {
      assert.deepEqual(lemmas(word), expected);
    });

  test("the word itself is always the first lemma", () => {
    for (const [word] of cases) assert.equal(lemmas(word)[0], word);
  });
});

describe("wordInfo", () => {
  const cases: [word: string, classes: string[] | undefined, telling: boolean, secrecy: boolean][] = [
    ["told", undefined, true, false],
    ["mentioned", ["topic"], true, false],
    ["secret", undefined, false, true],
    ["confidential", undefined, false, true],
    ["diabetes", ["health"], false, false],
    ["pregnant", ["health"], false, false],
    ["salary", ["money"], false, false],
    ["debt", ["money"], false, false],
    // Through its lemma "find".
    ["found", ["knowing"], true, false],
    ["tea", undefined, false, false],
  ];
  for (const [word, classes, telling, secrecy] of cases)
    test(`"${word}": classes ${JSON.stringify(classes)}, ${telling ? "" : "not "}telling, ${secrecy ? "" : "not "}secrecy`, () => {
      assert.deepEqual(wordInfo(word), { classes, telling, secrecy });
      assert.deepEqual(classesOf(word), classes);
    });

  test("a word is looked up once: the same answer object comes back", () => {
    assert.equal(wordInfo("salary"), wordInfo("salary"));
  });
});
