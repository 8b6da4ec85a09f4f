/**
 * The offline private-statement detector on sentences written for this test (none is in the
 * second-hand set it is measured on): requests by structure, kinds by WordNet sense, a topic is
 * not a confession, a request is taken out of the text, and a long text costs what its head does.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readPrivate, withoutPrivacyRequest } from "../../src/cognition/offline/private-statement.js";

const reasons = (text: string) => readPrivate(text).reasons;

describe("readPrivate", () => {
  it("finds requests by their structure: a forbidden telling, secrecy kept, the two of us", () => {
    for (const text of [
      "Please don't mention the promotion to Priya yet.",
      "I haven't told my parents about the move.",
      "Nobody at the office knows I'm leaving.",
      "Keep this quiet until Friday, ok?",
      "This stays between you and me: I'm buying the flat next door.",
      "dont tell ur sister abt the trip",
    ])
      assert.ok(reasons(text).includes("request"), text);
  });

  it("reads sensitive kinds from WordNet's senses, inflected too", () => {
    assert.ok(reasons("My son was diagnosed with epilepsy in May.").includes("health"));
    assert.ok(reasons("We're drowning in debt since the restaurant closed.").includes("money"));
    assert.ok(reasons("Tom and I are getting a divorce.").includes("relationship"));
    assert.ok(reasons("My cousin was charged with burglary last year.").includes("legal"));
    assert.ok(reasons("The safe combination is 44-18-09.").includes("credential"));
    assert.ok(reasons("Send it to 27 Willow Grove, please.").includes("contact"));
  });

  it("leaves ordinary talk alone, topics and denied secrecy included", () => {
    for (const text of [
      "We watched a documentary about malaria last night.",
      "It's no secret that I love jazz.",
      "I adopted a beagle called Biscuit in 2023.",
      "Our team meeting moved to Thursday at 3.",
      "My password manager has a lovely dark theme.",
    ])
      assert.deepEqual(reasons(text), [], text);
  });

  it("tells a bare request from a request with its fact", () => {
    assert.equal(readPrivate("Please don't tell anyone about that.").requestOnly, true);
    assert.equal(readPrivate("Please don't tell anyone, but I failed my driving test.").requestOnly, false);
  });

  it("reads only the head of a very long text (what lies past it is not read)", () => {
    const long = `${"We walked the dog along the river. ".repeat(30_000)}My PIN is 9911.`;
    assert.deepEqual(reasons(long), []);
    assert.ok(
      reasons(`My PIN is 9911. ${"We walked the dog along the river. ".repeat(30_000)}`).includes(
        "credential",
      ),
    );
  });
});

describe("withoutPrivacyRequest", () => {
  it("takes the request out and keeps the fact", () => {
    assert.equal(
      withoutPrivacyRequest("My bank PIN is 4321 and I have diabetes, please keep it secret."),
      "My bank PIN is 4321 and I have diabetes.",
    );
    assert.equal(withoutPrivacyRequest("I adopted a cat."), "I adopted a cat.");
  });
});
