/**
 * Typed slips read as the words meant: each kind of slip, and the words a reader must leave as
 * typed (names, chat abbreviations, jargon the dictionaries lack, words with a prefix or ending).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withSlipsRepaired, wordMeant } from "./typed-slips.js";

describe("typed slips", () => {
  it("reads a dropped, doubled, swapped or neighbouring letter as the word meant", () => {
    assert.equal(
      withSlipsRepaired("i go to the gym befor work evry day"),
      "i go to the gym before work every day",
    );
    assert.equal(withSlipsRepaired("got a new sofa finaly"), "got a new sofa finally");
    assert.equal(withSlipsRepaired("my freind is realy nice"), "my friend is really nice");
    assert.equal(withSlipsRepaired("we met untill late"), "we met until late");
    assert.equal(withSlipsRepaired("the docter said so"), "the doctor said so");
  });

  it("keeps every other character as written: case, punctuation, emoji", () => {
    assert.equal(withSlipsRepaired("Befor work!! 😅 evry, day."), "Befor work!! 😅 every, day.");
  });

  it("leaves names, chat abbreviations, slang and short words as typed", () => {
    const as = (text: string) => assert.equal(withSlipsRepaired(text), text);
    as("Bori and Dubu met Kalani in Västra");
    as("back in 2 wks tbh lol, idk");
    as("hes fine, im ok, dont worry");
    as("teh end");
    // Where chat writes a name in lower case: after a word for a person or an animal.
    as("my grandma folake lives with us and my dog rudi is 12");
  });

  it("leaves a real word the dictionaries lack when a slip would make it another word", () => {
    // Jargon one key from a common word: a rare reading is taken only when it is the only one.
    assert.equal(withSlipsRepaired("repotting my monstera"), "repotting my monstera");
    // A known word with an ending the dictionaries do not list it with.
    assert.equal(withSlipsRepaired("bouldering and journaling"), "bouldering and journaling");
  });

  it("reads nothing when two words are as likely ('wierd': weird or wired)", () => {
    assert.equal(wordMeant("wierd"), null);
  });

  it("takes the far more frequent of two equally cheap readings ('stoped': stopped, not stooped)", () => {
    assert.equal(wordMeant("stoped"), "stopped");
    // WordNet counts no closed-class word: "thes" may be "these" as well as "thus".
    assert.equal(wordMeant("thes"), null);
    assert.equal(withSlipsRepaired("i stoped going to church"), "i stopped going to church");
  });

  it("keeps a lower-case name after a person word that was itself mistyped", () => {
    assert.equal(withSlipsRepaired("my sistr agata is a nurse"), "my sister agata is a nurse");
    assert.equal(withSlipsRepaired("my brothr tomas"), "my brother tomas");
    assert.equal(withSlipsRepaired("kids: 1 daughter, salote"), "kids: 1 daughter, salote");
  });
});
