/**
 * The salience cues as a table: which cues a sentence shows and the score they add up to. A
 * durable fact or a change of status passes; greetings, hedges and trivia are pulled down.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { salience } from "./salience.js";

const none = { entities: 0, times: 0, numbers: 0 };

const cases: [sentence: string, score: number, cues: string[]][] = [
  ["Hi!", -4.5, ["too-short", "small-talk"]],
  ["ok", -4.5, ["too-short", "small-talk"]],
  ["Thanks so much, that's great.", -1.5, ["small-talk"]],
  ["I adopted a dog last week.", 4, ["first-person", "change", "identity", "content"]],
  ["My daughter Emma started school in Paris.", 4, ["first-person", "change", "identity", "content"]],
  ["I'm allergic to peanuts.", 3, ["first-person", "preference", "health"]],
  ["I'm going to run a marathon next year.", 2.25, ["first-person", "plan", "content"]],
  // Trivia is pulled down, unless it is a change ("quit coffee").
  ["I think I had coffee this morning.", -0.75, ["first-person", "hedge", "trivia"]],
  ["I quit coffee this morning.", 2.5, ["first-person", "change"]],
  // A habit is no trivia, however small its thing, and a lasting fact.
  ["I eat fast food for lunch most days.", 2, ["first-person", "habit", "content"]],
  ["Swimming, three times a week.", 1, ["habit", "content"]],
  ["I guess the weather is nice.", 0.25, ["first-person", "hedge"]],
];

describe("salience", () => {
  for (const [sentence, score, cues] of cases)
    test(`"${sentence}" scores ${score} (${cues.join(", ")})`, () => {
      assert.deepEqual(salience(sentence, none), { score, cues });
    });

  test("entities, times and numbers add their cues; entities count up to 1", () => {
    const plain = salience("I met Anna in Paris on 3 May.", none);
    const rich = salience("I met Anna in Paris on 3 May.", { entities: 3, times: 1, numbers: 2 });
    assert.equal(rich.score - plain.score, 1 + 0.5 + 0.25);
    assert.deepEqual(rich.cues.slice(plain.cues.length - 1, -1), ["entity", "time", "number"]);
    const one = salience("I met Anna in Paris on 3 May.", { entities: 1, times: 0, numbers: 0 });
    assert.equal(one.score - plain.score, 0.5);
  });

  test("small talk with enough cues before it is not pulled down", () => {
    // Opens like small talk ("Yes"), but says a change, a plan and who: 3 or more before the check.
    const r = salience("Yes, I moved to Rome and I will start working at a bank.", none);
    assert.ok(!r.cues.includes("small-talk"), r.cues.join());
  });
});
