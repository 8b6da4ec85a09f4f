/**
 * The WordNet lookups the frames and features read, on stemmed words: which verbs end, begin or
 * change a state, which words fall in a word field, and how two term sets relate.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stem } from "../../core/text.js";
import { expandSynonyms, inWordField, lemmaCount, lexicalRelations, slotsOf, verbAspect } from "./lexicon.js";

describe("verbAspect", () => {
  const cases: [verb: string, aspect: string | undefined][] = [
    ["quit", "end"],
    ["stop", "end"],
    ["finish", "end"],
    ["end", "end"],
    ["start", "begin"],
    ["begin", "begin"],
    ["change", "change"],
    ["become", "change"],
    ["switch", "change"],
    ["retire", "change"],
    ["live", undefined],
    ["move", undefined],
  ];
  for (const [verb, aspect] of cases)
    test(`"${verb}" ${aspect ? `${aspect}s a state` : "has no aspect"}`, () => {
      assert.equal(verbAspect(stem(verb)), aspect);
    });

  test("the lookup is by stem: an unstemmed form is not found", () => {
    assert.equal(verbAspect("change"), undefined);
  });
});

describe("inWordField", () => {
  const cases: [
    word: string,
    field: "verb.emotion" | "noun.communication" | "noun.food",
    inField: boolean,
  ][] = [
    ["love", "verb.emotion", true],
    ["email", "noun.communication", true],
    ["pizza", "noun.food", true],
    ["car", "noun.food", false],
  ];
  for (const [word, field, inField] of cases)
    test(`"${word}" is ${inField ? "" : "not "}in ${field}`, () => {
      assert.equal(inWordField(word, field), inField);
    });
});

describe("lexicalRelations", () => {
  const terms = (...words: string[]) => new Set(words.map(stem));
  test("words sharing a sense are synonyms", () => {
    assert.deepEqual(lexicalRelations(terms("ill"), terms("sick")), { antonyms: 0, synonyms: 1, related: 0 });
  });
  test("opposite words are antonyms, either way round", () => {
    assert.equal(lexicalRelations(terms("ill"), terms("recovered")).antonyms, 1);
    assert.equal(lexicalRelations(terms("sell"), terms("buy")).antonyms, 1);
  });
  test("opposites may share a parent sense too", () => {
    assert.deepEqual(lexicalRelations(terms("love"), terms("hate")), {
      antonyms: 1,
      synonyms: 0,
      related: 1,
    });
  });
  test.todo("words under one parent sense are related, as the comment's example says (today 'flat' / 'apartment' relate in no way)", () => {
    assert.equal(lexicalRelations(terms("flat"), terms("apartment")).related, 1);
  });
  test("a word is never its own synonym", () => {
    assert.deepEqual(lexicalRelations(terms("sick"), terms("sick")), {
      antonyms: 0,
      synonyms: 0,
      related: 0,
    });
  });
  test("unrelated words relate in no way", () => {
    assert.deepEqual(lexicalRelations(terms("cat"), terms("dog")), { antonyms: 0, synonyms: 0, related: 0 });
  });
  test("every pair across the sets is counted", () => {
    assert.equal(lexicalRelations(terms("ill", "sick"), terms("sick", "ill")).synonyms, 2);
  });
});

describe("expandSynonyms", () => {
  test("adds the stems that share a sense and keeps the given ones", () => {
    const out = expandSynonyms(new Set(["sick", "zzz"]));
    assert.ok(out.has("ill"));
    assert.ok(out.has("zzz"));
  });
});

describe("slotsOf and lemmaCount", () => {
  test("a noun's slot of a life comes from WordNet's hyponyms", () => {
    assert.deepEqual(slotsOf(stem("car")), ["vehicle"]);
    assert.ok(slotsOf(stem("tea")).includes("drink"));
    assert.ok(slotsOf(stem("apartment")).includes("home"));
    assert.deepEqual(slotsOf(stem("friend")), []);
  });

  test("a lemma's count in the tagged corpus tells a common word from a rare one", () => {
    assert.ok(lemmaCount("stop") > 5 * lemmaCount("stoop"));
    assert.equal(lemmaCount("qwertyuiop"), 0);
  });
});
