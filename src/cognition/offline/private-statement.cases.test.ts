/**
 * The privacy reader as tables: the request shapes and sensitive kinds the module's comment lists,
 * each with the reasons found, whether the statement is nothing but a request, and what is left
 * once the request is taken out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type PrivateReason, readPrivate, withoutPrivacyRequest } from "./private-statement.js";

describe("requests for secrecy, shape by shape", () => {
  // `without` is null where the statement is nothing but a request: what is left then is the todo below.
  const cases: [name: string, text: string, requestOnly: boolean, without: string | null][] = [
    ["'between you and me' with a fact", "Between you and me, I'm job hunting.", false, "I'm job hunting."],
    [
      "'off the record' before a colon",
      "This is off the record: we're expecting.",
      false,
      "We're expecting.",
    ],
    ["'mum's the word'", "Mum's the word, ok?", true, "Ok?"],
    ["'shh' and 'nobody needs to know'", "Shhh, nobody needs to know.", true, null],
    ["'keep this between us'", "Please keep this between us.", true, null],
    ["'keep it to yourself'", "Keep it to yourself.", true, null],
    ["'this stays with you'", "I'd rather this stays with you.", true, null],
    ["'our little secret'", "It's our little secret.", true, null],
    [
      "'in confidence' with the fact after it",
      "I'm telling you this in confidence, but I'm pregnant.",
      false,
      "I'm pregnant.",
    ],
    ["others not knowing: 'my parents don't know'", "My parents don't know yet.", true, null],
    ["a telling verb, forbidden: 'don't let it slip'", "Don't let it slip to the team.", true, null],
    ["a telling verb, forbidden: 'don't pass this on'", "Please don't pass this on.", true, null],
  ];
  for (const [name, text, requestOnly, without] of cases)
    it(`reads a request in ${name}`, () => {
      const reading = readPrivate(text);
      assert.equal(reading.reasons[0], "request");
      assert.equal(reading.requestOnly, requestOnly);
      if (without !== null) assert.equal(withoutPrivacyRequest(text), without);
    });

  it("leaves an empty statement, not a lone full stop, when the whole statement is a request", {
    todo: "withoutPrivacyRequest returns '.' for a statement that is nothing but a request",
  }, () => {
    assert.equal(withoutPrivacyRequest("Please keep this between us."), "");
  });
});

describe("statements that are not requests", () => {
  const cases: [name: string, text: string][] = [
    ["the speaker not knowing", "I don't know yet."],
    ["a secret used of a thing", "The secret ingredient is cumin."],
    ["nothing at all", ""],
  ];
  for (const [name, text] of cases)
    it(`reads nothing private in ${name}`, () => {
      assert.deepEqual(readPrivate(text), { reasons: [], requestOnly: false });
      assert.equal(withoutPrivacyRequest(text), text);
    });

  it("reads a past telling as a told fact, not a request", {
    todo: "the comment's own example 'I didn't tell him the ending' is read as a request ('him' is a recipient)",
  }, () => {
    assert.deepEqual(readPrivate("I didn't tell him the ending.").reasons, []);
  });
});

describe("sensitive kinds, statement by statement", () => {
  const cases: [name: string, text: string, reasons: PrivateReason[]][] = [
    ["a phone number", "Call me on 07700 900123.", ["contact"]],
    ["a house number and a street", "I live at 14 Elm Street.", ["contact"]],
    ["a PIN with its value", "My PIN is 4821.", ["credential"]],
    ["a time of day is no credential", "The meeting is at 10am.", []],
    ["an acronym written in capitals", "I have HIV.", ["health"]],
    ["debt", "We're in debt after the wedding.", ["money"]],
    ["bankruptcy", "We filed for bankruptcy.", ["money"]],
    ["a charge of fraud", "She was charged with fraud.", ["legal"]],
    ["a residence permit that ran out", "My visa ran out last month.", ["legal"]],
    [
      "a request and a kind together, request first",
      "I'm telling you this in confidence, but I'm pregnant.",
      ["request", "health"],
    ],
  ];
  for (const [name, text, reasons] of cases)
    it(`reads ${JSON.stringify(reasons)} in ${name}`, () => {
      assert.deepEqual(readPrivate(text).reasons, reasons);
    });

  it("reads a topic mention ('a documentary about …') as no health statement", {
    todo: "the comment names 'a documentary about …' as a topic phrase, yet 'documentary about cancer' is read as health",
  }, () => {
    assert.deepEqual(readPrivate("I watched a documentary about cancer.").reasons, []);
  });
});
