/** Statements as memories hold them: the talk taken off, and those that cannot stand alone left out. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cleanStatement } from "./clean-statement.js";

const clean = (text: string) => cleanStatement(text, "Sam", "Ava");

describe("cleanStatement", () => {
  it("takes greetings, the agent addressed, asides and hedges off the fact", () => {
    assert.deepEqual(clean("Hi Ava, Sam adopted a beagle called Biscuit."), {
      text: "Sam adopted a beagle called Biscuit.",
      changed: true,
    });
    assert.deepEqual(clean("Sam thinks Sam's other sister lives in Glasgow, as Ava knows."), {
      text: "Sam's other sister lives in Glasgow.",
      changed: true,
    });
    assert.deepEqual(clean("Between Ana and others, Ana is interviewing for a job in Lisbon."), {
      text: "Ana is interviewing for a job in Lisbon.",
      changed: true,
    });
    assert.deepEqual(clean("Honestly, Sam hates the commute, as you know."), {
      text: "Sam hates the commute.",
      changed: true,
    });
    // A lead-in to the agent before a colon; the agent's own things ("Ava's list:") stay.
    assert.deepEqual(clean("Ava won't believe it: another of Sam's alpacas followed Sam into town."), {
      text: "Another of Sam's alpacas followed Sam into town.",
      changed: true,
    });
    assert.deepEqual(clean("Guess what, Ava: Sam got the job."), { text: "Sam got the job.", changed: true });
    assert.deepEqual(clean("Just so Ava knows Sam's mum has parkinsons."), {
      text: "Sam's mum has parkinsons.",
      changed: true,
    });
    assert.deepEqual(clean("Before Sam forgets, Sam is allergic to sesame, in case recipes come up."), {
      text: "Sam is allergic to sesame.",
      changed: true,
    });
    assert.deepEqual(clean("Sam and Jo, 9 years married now, can Ava believe it."), {
      text: "Sam and Jo, 9 years married now.",
      changed: true,
    });
    assert.deepEqual(clean("Sam quit the choir, would you believe it?"), {
      text: "Sam quit the choir.",
      changed: true,
    });
    assert.deepEqual(clean("Sam's brother, would you believe it, got a tattoo."), {
      text: "Sam's brother got a tattoo.",
      changed: true,
    });
    // Reported speech, and a real reason, stay.
    for (const kept of [
      "Sam told Tom, can you pick up the kids at 5, and he did.",
      "Sam keeps an epipen in case an allergy comes up.",
    ])
      assert.deepEqual(clean(kept), { text: kept, changed: false });
    // "in case of" names what a thing is for: part of the fact.
    assert.deepEqual(clean("Sam carries an inhaler in case of an attack."), {
      text: "Sam carries an inhaler in case of an attack.",
      changed: false,
    });
    assert.deepEqual(clean("For the record, Sam has been a member of the quiz society since 2016."), {
      text: "Sam has been a member of the quiz society since 2016.",
      changed: true,
    });
    assert.deepEqual(clean("Ava's list: cafés in Bristol."), {
      text: "Ava's list: cafés in Bristol.",
      changed: false,
    });
  });

  it("takes hedges, reminders and requests to the agent off, in chat spellings too", () => {
    assert.deepEqual(clean("Sam probably moves to Leeds in May."), {
      text: "Sam moves to Leeds in May.",
      changed: true,
    });
    assert.deepEqual(clean("As u know, Sam's wife is Zsofia."), {
      text: "Sam's wife is Zsofia.",
      changed: true,
    });
    assert.deepEqual(clean("Sam probably told u already, Sam works as a nurse."), {
      text: "Sam works as a nurse.",
      changed: true,
    });
    assert.deepEqual(clean("Mayb u remember Sam's dog Rudi, a dachshund."), {
      text: "Sam's dog Rudi, a dachshund.",
      changed: true,
    });
    assert.deepEqual(clean("Sam's sister works as a vet in Amman Sam told Ava thats rite."), {
      text: "Sam's sister works as a vet in Amman.",
      changed: true,
    });
    assert.ok("dropped" in clean("Pls remind Sam to book the vet for Tuesday."));
    assert.ok("dropped" in clean("Can you remind Sam about the dentist?"));
  });

  it("takes off a request to note what follows, and keeps what follows", () => {
    const text = (t: string) => {
      const c = clean(t);
      return "text" in c ? c.text : c.dropped;
    };
    assert.equal(
      text("Please note that Sam's general practitioner is now Dr Okoro at Limebrook Surgery."),
      "Sam's general practitioner is now Dr Okoro at Limebrook Surgery.",
    );
    assert.equal(
      text("For Quinby's records: Sam's husband is a paramedic."),
      "Sam's husband is a paramedic.",
    );
    assert.equal(text("for ur info, Sam moved to Hove"), "Sam moved to Hove.");
    assert.equal(text("Kindly bear in mind that Sam is allergic to nuts."), "Sam is allergic to nuts.");
    // A request to do something is still no fact.
    assert.equal(text("Please remind Sam to call the dentist."), "a request to the agent, not a fact");
  });

  it("keeps an opinion about something else", () => {
    assert.deepEqual(clean("Sam thinks the film was too long."), {
      text: "Sam thinks the film was too long.",
      changed: false,
    });
  });

  it("leaves out a statement whose subject or object is a pronoun with no one named", () => {
    assert.ok("dropped" in clean("Sam adopted him recently."));
    assert.ok("dropped" in clean("He adopted a dog."));
    assert.ok("dropped" in clean("They moved to Leeds last year."));
    assert.ok("dropped" in clean("Sam loves it."));
  });

  it("keeps pronouns that have someone before them, possessives and 'it' that stands for nothing", () => {
    for (const text of [
      "Sam met Tom at work and likes him.",
      "Sam loves her job at the bakery.",
      "Sam found it hard to sleep last week.",
      "Sam has two cats, and they sleep all day.",
      "Violin lessons.",
    ])
      assert.deepEqual(clean(text), { text, changed: false }, text);
  });
});
