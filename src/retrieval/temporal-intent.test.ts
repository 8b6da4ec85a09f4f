import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INTENT_CHARS, temporalIntent } from "./temporal-intent.js";

describe("temporalIntent", () => {
  it("reads questions about an earlier state as past, with the later state as anchor", () => {
    assert.deepEqual(temporalIntent("Where did Sam live before Bristol?"), {
      kind: "past",
      anchor: "bristol",
      main: "where did sam live",
      signal: "before-clause",
    });
    assert.equal(temporalIntent("What did Maya do before she moved?").anchor, "she moved");
    assert.equal(temporalIntent("Was Tom vegetarian before he went vegan?").anchor, "he went vegan");
    assert.equal(temporalIntent("What was Kofi's job prior to the layoff?").anchor, "the layoff");
    // A while clause names the state the answer held in, but is not searched from.
    assert.equal(temporalIntent("Where did Priya work while she was studying?").anchor, "she was studying");
    assert.equal(temporalIntent("Was Tom vegetarian before he went vegan?").main, "was tom vegetarian");
  });

  it("reads habitual past, past states and adverbs of anteriority as past", () => {
    for (const [q, signal] of [
      ["What car did Grace use to drive?", "used-to"],
      ["Lena used to live in Porto, right?", "used-to"],
      ["Where did Priya work while she was studying?", "during-clause"],
      ["What did Sam do when he lived in Leeds?", "during-clause"],
      ["Who was Maya dating?", "past-state"],
      ["What shifts was Olu working back in March?", "past-state"],
      ["Were the twins at nursery?", "past-state"],
      ["What was Sam's previous job?", "anteriority"],
      ["Which team did Omar originally support?", "anteriority"],
      ["Where was Sam living at first?", "anteriority"],
      ["Where did Sam live before?", "anteriority"],
      ["Where did they live back then?", "anteriority"],
      ["Was Dev still in school in 2021?", "continuative"],
    ] as const) {
      const { kind, signal: read, main } = temporalIntent(q);
      assert.deepEqual({ kind, signal: read, main }, { kind: "past", signal, main: undefined }, q);
    }
  });

  it("reads continuative and discontinuative questions in the present as still", () => {
    for (const q of [
      "Is Sam still ill with a cold?",
      "Does Ana still live with her parents?",
      "Does Maya smoke anymore?",
      "does maya smoke any more",
      "Does Sam no longer work nights?",
      "Is Ravi working at the bakery any longer?",
    ])
      assert.equal(temporalIntent(q).kind, "still", q);
  });

  it("leaves present questions and future plans alone", () => {
    for (const q of [
      "Where does Sam live now?",
      "Which city does Maya live in?",
      "Does Hana eat fish?",
      "Who is Maya dating?",
      "Will Sam move before summer?",
      "What should I cook before Sam arrives?",
      "What does Sam do when he is tired?",
      "Is Sam's first marathon in May?",
      "How old is Sam?",
      "",
      "?",
    ])
      assert.deepEqual(temporalIntent(q), { kind: "none" }, q);
  });

  it("reads a simple past with an ordinary verb as an event", () => {
    for (const q of [
      "What did Sam say about the marathon?",
      "How did Sam do in the half marathon?",
      "Did Sam go to the party?",
      "When did Sam move to Bristol?",
      "What did Melanie paint last month?",
      "Who gave Sam the bike?",
      "When did Caroline go to the support group?",
      // "after" as the particle of a phrasal verb opens no clause.
      "In spring 2023, did Priya mainly look after newborn babies?",
      "Who did Sam take after?",
    ])
      assert.deepEqual(temporalIntent(q), { kind: "event", signal: "past-event" }, q);
  });

  it("reads a long query's intent from its first INTENT_CHARS characters only", () => {
    const question = "Where did Sam live before Bristol?";
    // The clause that would make it a question about the past lies past the prefix.
    const late = `Tell me about Sam ${"and his garden ".repeat(80)}. ${question}`;
    assert.ok(late.indexOf("before") > INTENT_CHARS);
    assert.notEqual(temporalIntent(late).signal, "before-clause");
    // Inside the prefix, the same clause is read as usual, whatever follows it.
    const early = `${question} ${"Sam likes his garden. ".repeat(60)}`;
    assert.ok(early.length > INTENT_CHARS);
    assert.equal(temporalIntent(early).signal, "before-clause");
  });
});
