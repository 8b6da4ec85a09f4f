import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fragmentDetail, verblessFragment, withSpeakerRestored } from "./ellipsis.js";
import { nlp } from "./nlp.js";

const restored = (sentence: string) => withSpeakerRestored(sentence, nlp(sentence).terms());

describe("a dropped subject put back", () => {
  it("reads a verbless fragment that ends on a noun naming a person as a role", () => {
    assert.equal(restored("dept head now."), "I'm a dept head now.");
    assert.equal(restored("volunteer at the food bank."), "I'm a volunteer at the food bank.");
    assert.equal(
      restored("Night nurse at the Royal Infirmary."),
      "I'm a night nurse at the Royal Infirmary.",
    );
    assert.equal(restored("foreman on the night crew"), "I'm a foreman on the night crew");
  });

  it("reads a verbless fragment that opens with a place or a state", () => {
    assert.equal(restored("no longer at the food bank."), "I'm no longer at the food bank.");
    assert.equal(restored("Back from Lisbon."), "I'm back from Lisbon.");
    assert.equal(restored("still at the tram depot"), "I'm still at the tram depot");
  });

  it("reads a fragment that opens with a phrasal verb or a verb of stopping", () => {
    assert.equal(restored("cut out sugar."), "I cut out sugar.");
    assert.equal(restored("gave up the allotment"), "I gave up the allotment");
  });

  it("reads a gerund before a preposition, an adverb or a determiner as a dropped 'I'm'", () => {
    assert.equal(restored("renting in hanoi."), "I'm renting in hanoi.");
    assert.equal(restored("swimming at the lido now."), "I'm swimming at the lido now.");
    assert.equal(restored("training for a 10k"), "I'm training for a 10k");
    // Before a noun, a gerund names a kind of thing.
    assert.equal(restored("running shoes."), null);
  });

  it("tells a verbless fragment, and the short detail that may follow one", () => {
    const verbless = (s: string) => verblessFragment(nlp(s).terms());
    const detail = (s: string) => fragmentDetail(s, nlp(s).terms());
    assert.equal(verbless("fizzy drinks."), true);
    assert.equal(verbless("turkish classes"), true);
    assert.equal(verbless("I love it."), false);
    assert.equal(verbless("have a dog."), false);
    assert.equal(detail("2 cans a day."), true);
    assert.equal(detail("diagnosed 2016."), true);
    assert.equal(detail("mornings, before school."), true);
    // A fact of its own, a clause with its subject, or a long one is no detail.
    assert.equal(detail("team leader at Redmesa."), false);
    assert.equal(detail("She loves watercolours."), false);
    assert.equal(detail("the long drive to the coast on a sunny Sunday"), false);
  });

  it("reads a fragment that opens with a state's adjective or a plain verb", () => {
    assert.equal(restored("allergic to wasps."), "I'm allergic to wasps.");
    assert.equal(restored("scared of heights"), "I'm scared of heights");
    assert.equal(restored("carry an epipen."), "I carry an epipen.");
    assert.equal(restored("work at teva."), "I work at teva.");
  });

  it("leaves sentences with a subject, times, numbers, things and greetings alone", () => {
    for (const sentence of [
      "My sister is a nurse.",
      "Sam is a volunteer.",
      "At 6am every day.",
      "6 people.",
      "billing software.",
      "engineering.",
      "Sounds great.",
      "The new job at the mall.",
      "back again.",
      "Busy week, lots of meetings.",
      // Wishes to the listener, not facts about the speaker.
      "have a nice day!",
      "enjoy the weekend",
      "take care",
    ])
      assert.equal(restored(sentence), null, sentence);
  });
});
