/**
 * The times a question asks about, as a table beyond the module's own tests: ordinals and "of",
 * abbreviated months, several mentions in one question, the day before or after a date, counts
 * after a date, invalid days and years outside the range read.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMentionedTimes } from "./time-mentions.js";

const now = "2023-08-20T10:00:00.000Z";
/** Each range as "start..end label | phrase". */
const read = (q: string) =>
  findMentionedTimes(q, now).map(
    (r) => `${r.start.slice(0, 10)}..${r.end.slice(0, 10)} ${r.label} | ${r.phrase}`,
  );

describe("findMentionedTimes, question by question", () => {
  const cases: [name: string, question: string, ranges: string[]][] = [
    [
      "an ordinal day with 'of' before the month",
      "What happened on 3rd of March 2022?",
      ["2022-03-03..2022-03-04 3 March 2022 | 3rd of March 2022"],
    ],
    [
      "an abbreviated month with a full stop",
      "And on Sept. 5, 2021?",
      ["2021-09-05..2021-09-06 5 September 2021 | Sept. 5, 2021"],
    ],
    [
      "a month and a bare year in one question, each read once",
      "In Jan 2020 and in 2019?",
      ["2020-01-01..2020-02-01 January 2020 | Jan 2020", "2019-01-01..2020-01-01 2019 | 2019"],
    ],
    ["a month in lower case", "in may 2023", ["2023-05-01..2023-06-01 May 2023 | may 2023"]],
    ["a comma between month and year", "in March, 2021", ["2021-03-01..2021-04-01 March 2021 | March, 2021"]],
    [
      "the day before a date",
      "the day before May 7, 2023",
      ["2023-05-06..2023-05-07 6 May 2023 | the day before May 7, 2023"],
    ],
    [
      "the day after a date",
      "the day after May 7, 2023",
      ["2023-05-08..2023-05-09 8 May 2023 | the day after May 7, 2023"],
    ],
    [
      "the week before a date",
      "the week before August 3, 2023",
      ["2023-07-23..2023-07-30 the week before 3 August 2023 | the week before August 3, 2023"],
    ],
    [
      "the month after a date",
      "the month after March 15, 2023",
      ["2023-04-01..2023-05-01 April 2023 | the month after March 15, 2023"],
    ],
    [
      "'next week after' a date",
      "next week after June 1, 2023",
      ["2023-06-04..2023-06-11 the week after 1 June 2023 | next week after June 1, 2023"],
    ],
    [
      // Counts are resolved only backwards ("two days before"): after a date, the date alone is read.
      "a count after a date reads the date alone",
      "two days after May 7, 2023",
      ["2023-05-07..2023-05-08 7 May 2023 | May 7, 2023"],
    ],
    [
      // A bare year anchors nothing: "last month" is read against the present.
      "a relative phrase before a bare year is read against the present",
      "last month before 2023",
      ["2023-07-01..2023-08-01 July 2023 | last month", "2023-01-01..2024-01-01 2023 | 2023"],
    ],
    [
      "an impossible day falls back to its month",
      "on 32 May 2023",
      ["2023-05-01..2023-06-01 May 2023 | May 2023"],
    ],
    ["a year before 1900 is not read", "what about 1899?", []],
    [
      "'yesterday' is the day before the present",
      "yesterday",
      ["2023-08-19..2023-08-20 19 August 2023 | yesterday"],
    ],
    [
      "years ago are whole calendar years",
      "three years ago",
      ["2020-01-01..2021-01-01 2020 | three years ago"],
    ],
  ];
  for (const [name, question, ranges] of cases)
    it(`reads ${name}`, () => {
      assert.deepEqual(read(question), ranges);
    });
});
