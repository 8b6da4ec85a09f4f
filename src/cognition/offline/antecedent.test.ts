import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lastPersonIn, withAntecedent } from "./antecedent.js";

const resolve = (before: string, clause: string) =>
  withAntecedent(clause, lastPersonIn(before, "Sam", "Ava"));

describe("a pronoun given back its person", () => {
  it("puts the last person a turn named in place of a subject pronoun that agrees", () => {
    assert.equal(
      resolve("My daughter painted this.", "She loves watercolours."),
      "My daughter loves watercolours.",
    );
    assert.equal(
      resolve("My daughter painted this.", "she's got a show in May"),
      "My daughter has got a show in May",
    );
    assert.equal(
      resolve("We saw my parents in Leeds.", "They're both retired."),
      "My parents are both retired.",
    );
    assert.equal(resolve("I met Tom at the gym.", "He works as a nurse."), "Tom works as a nurse.");
    assert.equal(
      resolve("My best friend Ana moved to Rome.", "She teaches art there."),
      "My best friend Ana teaches art there.",
    );
  });

  it("puts the person in place of a possessive opening the subject, when it agrees", () => {
    assert.equal(
      resolve("My husband, Xosé, is a paramedic.", "His shifts are long this winter."),
      "My husband Xosé's shifts are long this winter.",
    );
    assert.equal(resolve("My sister moved to Hull.", "her flat is tiny"), "My sister's flat is tiny");
    // "Their" does not agree with one sister; a name does not agree with "their".
    assert.equal(resolve("My sister moved to Hull.", "Their flat is tiny."), "Their flat is tiny.");
    assert.equal(resolve("Nothing here.", "His shifts are long."), "His shifts are long.");
  });

  it("leaves a pronoun that does not agree, or with no one before it, as it was", () => {
    assert.equal(resolve("My brother called.", "She was upset."), "She was upset.");
    assert.equal(resolve("My kids are home.", "She is tired."), "She is tired.");
    assert.equal(resolve("I met Tom at the gym.", "They were closed."), "They were closed.");
    assert.equal(resolve("The weather was awful.", "She left early."), "She left early.");
    assert.equal(
      resolve("Ava helped me a lot.", "She is kind."),
      "She is kind.",
      "the listener is not an antecedent",
    );
    assert.equal(resolve("My car broke down.", "It was old."), "It was old.");
  });
});
