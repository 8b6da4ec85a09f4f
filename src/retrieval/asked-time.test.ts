import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { askedRanges, asksAboutNow, recencyScale, unitTime, withinAsked } from "./asked-time.js";

const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);

describe("asked time", () => {
  it("matches a unit said in the asked range, or up to two weeks after it", () => {
    const july = askedRanges("What did Sam do in July 2023?", "2023-12-01T00:00:00.000Z");
    assert.equal(july.length, 1);
    assert.ok(withinAsked(unitTime("We went camping.", "2023-07-20T10:00:00.000Z"), july));
    assert.ok(withinAsked(unitTime("We went camping.", "2023-08-10T10:00:00.000Z"), july));
    assert.ok(!withinAsked(unitTime("We went camping.", "2023-09-01T10:00:00.000Z"), july));
  });

  it("matches a unit whose own words mention a time in the asked range", () => {
    const may = askedRanges("What happened in May 2023?", "2023-12-01T00:00:00.000Z");
    const said = unitTime("Back in May 2023 I broke my wrist.", "2023-10-01T10:00:00.000Z");
    assert.ok(withinAsked(said, may));
    assert.ok(!withinAsked(unitTime("I broke my wrist.", "2023-10-01T10:00:00.000Z"), may));
  });

  it("knows questions about the present, and ranks recency by day", () => {
    assert.ok(asksAboutNow("Where does Sam live now?"));
    assert.ok(asksAboutNow("Is Sam still ill?"));
    assert.ok(!asksAboutNow("Where did Sam live in 2020?"));
    const scale = recencyScale([day("2023-01-01"), day("2023-01-02"), day("2023-01-03"), day("2031-01-01")]);
    assert.equal(scale(day("2023-01-02")), 1 / 3, "a far-off date does not squeeze the others together");
    assert.equal(scale(day("2031-01-01")), 1);
    assert.equal(recencyScale([day("2023-01-01")])(day("2023-01-01")), 1);
  });
});
