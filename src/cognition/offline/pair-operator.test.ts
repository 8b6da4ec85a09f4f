import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseFrame, statesNewAmount } from "./frame.js";
import { canHold, classifyPair, fuseOffline } from "./pair-operator.js";

/** The offline operator with a fixed similarity, so each rule is tested on its own. */
const op = (memory: string, summary: string, cosine = 0.7, about = "Sam") =>
  classifyPair(memory, summary, about, { cosine }).label;

describe("offline pair operator", () => {
  it("labels the four operations and FUSION on clear cases", () => {
    assert.equal(op("Sam has a cold.", "Sam's cold is all better now."), "DELETE");
    assert.equal(op("Sam lives in Leeds.", "Sam moved to Bristol."), "REPLACE");
    assert.equal(op("Sam is vegetarian.", "Sam is not vegetarian anymore."), "REPLACE");
    assert.equal(op("Sam goes hiking every weekend.", "Sam goes hiking."), "PASS");
    assert.equal(op("Sam has a dog.", "Sam started learning Spanish.", 0.3), "APPEND");
    assert.equal(
      op(
        "Sam's back hurts but Sam has not seen a doctor yet.",
        "Sam is receiving physiotherapy at the hospital.",
      ),
      "FUSION",
    );
    assert.equal(op("Sam has two cats.", "Sam adopted a third cat."), "FUSION");
    assert.equal(
      op("Sam is going to a conference in July.", "Sam went to the conference on 10 July."),
      "REPLACE",
    );
  });

  it("reads a new value for the same measure as a change, and nothing else as one", () => {
    const why = (m: string, s: string) => classifyPair(m, s, "Lucia", { cosine: 0.5 }).reason;
    assert.equal(
      why("Lucia pays 900 a month for her flat.", "The new flat costs 1,350 a month."),
      "new-value",
    );
    assert.equal(why("Lucia runs about 15 km a week.", "Lucia is at around 30 km a week now."), "new-value");
    assert.notEqual(
      why("Lucia pays 900 a month for her flat.", "Lucia pays 900 a month, bills included."),
      "new-value",
    );
    assert.notEqual(why("Lucia has two kids.", "Lucia has three dogs."), "new-value");
    assert.notEqual(
      why("Lucia moved to Lisbon on 20 April 2024.", "Lucia ran the Lisbon half marathon on 19 May 2024."),
      "new-value",
      "dates are not measures",
    );
  });

  it("does not call a summary with an amount of its own already held (PASS)", () => {
    const rule = (m: string, s: string) => classifyPair(m, s, "Lucia", { cosine: 0.8 });
    // Without the amount the summary's words are all in the memory: PASS.
    const memory = "Lucia's rent went up again this spring.";
    assert.equal(rule(memory, "Lucia's rent went up this spring.").label, "PASS");
    const raised = rule(memory, "Lucia's rent went up to 1400 this spring.");
    assert.notEqual(raised.label, "PASS");
    // The paraphrase branch too: very close in meaning, but a number of its own.
    const close = (m: string, s: string) => classifyPair(m, s, "Lucia", { cosine: 0.95 }).label;
    assert.equal(close("Lucia cycles to work.", "Lucia commutes by bike."), "PASS");
    assert.notEqual(close("Lucia cycles to work.", "Lucia commutes 12 miles by bike."), "PASS");
  });

  it("lets the memory hold a summary only if they are close or share a word that is not a name", () => {
    const side = (text: string) => ({ text, frame: parseFrame(text, "Ben") });
    const row = side("Claire and Ben had another row about the kitchen extension.");
    // Below the topical cosine, a name in common is not enough: the row does not hold the separation.
    assert.equal(canHold(row, side("Claire and Ben have separated."), 0.5), false);
    assert.equal(canHold(row, side("Claire and Ben are still arguing about the kitchen."), 0.5), true);
    assert.equal(canHold(row, side("Claire and Ben have separated."), 0.6), true);
    // A WordNet synonym counts as a shared word; a new amount rules PASS out however close.
    assert.equal(canHold(side("Ben's car broke down."), side("Ben's automobile is fixed."), 0.3), true);
    assert.equal(canHold(row, side("Claire and Ben spent 4000 on the kitchen extension."), 0.9), false);
  });

  it("reads as names the capitalised words of other people and places, not shouting or openers", () => {
    const names = (text: string) => [...parseFrame(text, "Ben").names].sort();
    assert.deepEqual(names("Claire and Ben went to Leeds."), ["clair", "leed"]);
    assert.deepEqual(names("My sister Laura is a vet."), ["laura"]);
    // A sentence's first word is a name only if the tagger knows it as one; capitals are shouting.
    assert.deepEqual(names("We ate out. Dinner was lovely."), []);
    assert.deepEqual(names("I GOT THE JOB."), []);
  });

  it("does not count the article of a rate as an amount", () => {
    // "a week" is read as a number without a value; it is no new amount beside "weekly".
    assert.equal(
      statesNewAmount("Sam works 40 hours weekly.", "Sam works 40 hours a week since March 2021."),
      false,
    );
    assert.equal(statesNewAmount("Sam works 40 hours weekly.", "Sam works 45 hours a week now."), true);
  });

  it("does not take emphasis, background or other people's names for a change", () => {
    assert.notEqual(op("It was so special with the family.", "Sam will never forget the day."), "REPLACE");
    assert.equal(
      op(
        "Sam gives a loving home to kids.",
        "Sam has known these friends since Sam moved from Sam's home country.",
      ),
      "APPEND",
    );
    assert.notEqual(
      op("Gina is right, Sam loves it and that keeps Sam's confidence up.", "Sam won't give up, Gina."),
      "REPLACE",
    );
    assert.equal(op("Sam has two cats.", "Sam finished another painting in 2023.", 0.7), "APPEND");
    assert.equal(op("Sam is not vegetarian.", "Sam is not vegetarian."), "PASS");
  });

  it("fuses offline without losing the older clause", () => {
    assert.equal(
      fuseOffline(
        "Sam's back hurts but Sam has not seen a doctor yet.",
        "Sam is receiving physiotherapy.",
        "Sam",
      ),
      "Sam is receiving physiotherapy; earlier: Sam's back hurts.",
    );
  });
});
