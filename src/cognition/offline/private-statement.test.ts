import assert from "node:assert/strict";
import { test } from "node:test";
import { readPrivate, withoutPrivacyRequest } from "./private-statement.js";

const reasons = (text: string) => readPrivate(text).reasons;

test("sensitive kinds are read from WordNet classes", () => {
  assert.ok(reasons("My aunt has been diagnosed with leukemia.").includes("health"));
  assert.ok(reasons("I still owe the bank for the car.").includes("money"));
  assert.ok(reasons("Her parents are getting a divorce.").includes("relationship"));
  assert.ok(reasons("My nephew was arrested for burglary last week.").includes("legal"));
  assert.ok(reasons("The code for the storage unit is 5518.").includes("credential"));
  assert.ok(reasons("Send it to 27 Oakfield Road please.").includes("contact"));
  assert.ok(reasons("you can reach me at jo.baker@example.org").includes("contact"));
});

test("ordinary statements and topic mentions are not private", () => {
  for (const text of [
    "We adopted a kitten called Biscuit.",
    "I read an article about leukemia research on the train.",
    "The password rules at work changed again, annoyingly.",
    "My sister lives in Leeds and loves rowing.",
    "The secret to good bread is patience.",
    "I told my whole team about the new baby.",
  ])
    assert.deepEqual(reasons(text), [], text);
});

test("requests for secrecy are found, and the listener is not a third party", () => {
  assert.deepEqual(reasons("Please don't mention this to my brother, but I'm buying him a guitar."), [
    "request",
  ]);
  assert.ok(reasons("Keep it quiet for now, we're moving in together.").includes("request"));
  assert.ok(reasons("Nobody knows yet, but I'm learning the cello.").includes("request"));
  assert.deepEqual(reasons("I'm not telling you the ending, go watch it."), []);
  assert.deepEqual(reasons("Everybody knows I can't keep a secret."), []);
});

test("a bare request is requestOnly; withoutPrivacyRequest drops the request clause", () => {
  assert.equal(readPrivate("Please don't tell anyone about that.").requestOnly, true);
  assert.equal(readPrivate("Don't tell anyone, I'm learning the cello.").requestOnly, false);
  assert.equal(
    withoutPrivacyRequest("My locker code is 1234 and I have asthma, please keep it secret."),
    "My locker code is 1234 and I have asthma.",
  );
  assert.equal(
    withoutPrivacyRequest("Don't tell anyone, but I'm learning the cello."),
    "I'm learning the cello.",
  );
  assert.equal(withoutPrivacyRequest("We went bowling."), "We went bowling.");
});

test("a 1 MB text is read by its beginning, quickly", () => {
  const big = "We went bowling and had pizza. ".repeat(35000);
  const t0 = performance.now();
  assert.deepEqual(reasons(big), []);
  assert.ok(performance.now() - t0 < 200);
});
