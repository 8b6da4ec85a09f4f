import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withContractionsSpelled } from "./chat-spelling.js";

describe("chat spellings of contractions", () => {
  it("writes out apostrophe-less contractions and a lower-case u", () => {
    assert.equal(withContractionsSpelled("im doing deliveries as well"), "I'm doing deliveries as well");
    assert.equal(withContractionsSpelled("Dont eat meat, didnt like it"), "Don't eat meat, didn't like it");
    assert.equal(withContractionsSpelled("i told u thats my sister"), "i told you that's my sister");
    assert.equal(withContractionsSpelled("Ive got a new job"), "I've got a new job");
  });

  it("leaves words of their own, other words that contain one, and a capital U alone", () => {
    for (const text of [
      "I was ill last week",
      "we were well",
      "its tail, lets go",
      "the cantina in Umbria",
      "got a U in maths",
      "I'm fine",
    ])
      assert.equal(withContractionsSpelled(text), text);
  });

  it("reads a 'were' opening a statement as 'we're', and leaves an inverted or asking 'were' alone", () => {
    assert.equal(
      withContractionsSpelled("Were in a bungalow in Bridlington these days."),
      "We're in a bungalow in Bridlington these days.",
    );
    assert.equal(withContractionsSpelled("ok. were moving to leeds"), "ok. we're moving to leeds");
    for (const text of [
      "Were it not for Tom, I would quit.",
      "Were you there?",
      "We were in Leeds.",
      "Were Sam and Tom late",
    ])
      assert.equal(withContractionsSpelled(text), text);
  });
});
