import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { InvalidInputError } from "./errors.js";
import {
  absolutizeTimes,
  findRelativeTimes,
  formatDay,
  parseConversationTime,
  resolveRelativeTime,
} from "./time.js";

describe("conversation time", () => {
  it("reads ISO and LoCoMo stamps as UTC", () => {
    assert.equal(parseConversationTime("2023-05-08"), "2023-05-08T00:00:00.000Z");
    assert.equal(parseConversationTime("2023-05-08T13:56"), "2023-05-08T13:56:00.000Z");
    assert.equal(parseConversationTime("2023-05-08T13:56:00+02:00"), "2023-05-08T11:56:00.000Z");
    assert.equal(parseConversationTime("1:56 pm on 8 May, 2023"), "2023-05-08T13:56:00.000Z");
    assert.equal(parseConversationTime("12:09 am on 13 September, 2023"), "2023-09-13T00:09:00.000Z");
    assert.throws(() => parseConversationTime("next tuesday-ish"), InvalidInputError);
    assert.throws(() => parseConversationTime("2023-13-45"), InvalidInputError);
  });

  it("resolves relative phrases against the session, not the clock", () => {
    const at = "2023-05-08T13:56:00.000Z"; // a Monday
    assert.equal(resolveRelativeTime("yesterday", at)?.label, "7 May 2023");
    assert.equal(resolveRelativeTime("last month", at)?.label, "April 2023");
    assert.equal(resolveRelativeTime("next month", at)?.label, "June 2023");
    assert.equal(resolveRelativeTime("two weeks ago", at)?.label, "about 24 April 2023");
    assert.equal(resolveRelativeTime("3 years ago", at)?.label, "2020");
    assert.equal(resolveRelativeTime("last friday", at)?.label, "5 May 2023");
    assert.equal(resolveRelativeTime("next friday", at)?.label, "12 May 2023");
    assert.equal(resolveRelativeTime("last Tues", at)?.label, "2 May 2023");
    assert.equal(resolveRelativeTime("last week", at)?.start, "2023-04-30T00:00:00.000Z");
    assert.equal(resolveRelativeTime("in June", at)?.label, "June 2023");
    assert.equal(resolveRelativeTime("in December", at)?.label, "December 2022");
    assert.equal(resolveRelativeTime("in March 2021", at)?.label, "March 2021");
    assert.equal(resolveRelativeTime("someday", at), null);
  });

  it("rewrites relative phrases so statements stay true later", () => {
    const at = "2023-05-08T13:56:00.000Z";
    assert.equal(
      absolutizeTimes("I went to a support group yesterday.", at),
      "I went to a support group on 7 May 2023.",
    );
    assert.equal(absolutizeTimes("We moved there 3 years ago", at), "We moved there in 2020");
    assert.equal(findRelativeTimes("Yesterday and last month", at).length, 2);
    assert.equal(formatDay(at), "8 May 2023");
  });
});

describe("conversation times of any year", () => {
  it("keeps a LoCoMo year below 100 as written, not 19xx", () => {
    assert.equal(parseConversationTime("1:56 pm on 8 May, 0042"), "0042-05-08T13:56:00.000Z");
    assert.equal(parseConversationTime("9:00 am on 29 February, 0004"), "0004-02-29T09:00:00.000Z");
    assert.throws(() => parseConversationTime("9:00 am on 29 February, 0100"), /not a real date/);
    assert.equal(parseConversationTime("1:56 pm on 8 May, 2023"), "2023-05-08T13:56:00.000Z");
  });
});
