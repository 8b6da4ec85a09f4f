import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMentionedTimes } from "./time-mentions.js";

const now = "2023-08-20T10:00:00.000Z";
const read = (q: string) =>
  findMentionedTimes(q, now).map((r) => `${r.start.slice(0, 10)}..${r.end.slice(0, 10)} ${r.phrase}`);

describe("times a question asks about", () => {
  it("reads written dates in either order, with or without the day", () => {
    assert.deepEqual(read("What did she show on October 13, 2023?"), [
      "2023-10-13..2023-10-14 October 13, 2023",
    ]);
    assert.deepEqual(read("What did Gina find on 1 February, 2023?"), [
      "2023-02-01..2023-02-02 1 February, 2023",
    ]);
    assert.deepEqual(read("What class did Maria start in December 2023?"), [
      "2023-12-01..2024-01-01 December 2023",
    ]);
    assert.deepEqual(read("How often at the beach in 2023?"), ["2023-01-01..2024-01-01 2023"]);
  });

  it("resolves relative phrases against the present, or against the date they hang on", () => {
    assert.deepEqual(read("Where did John go last year?"), ["2022-01-01..2023-01-01 last year"]);
    assert.deepEqual(read("When did Melanie go camping in June?"), ["2023-06-01..2023-07-01 in June"]);
    assert.deepEqual(read("What did Maria do last weekend before April 10, 2023?"), [
      "2023-04-08..2023-04-10 last weekend before April 10, 2023",
    ]);
    assert.deepEqual(read("What puppy did she get two weeks before August 11, 2023?"), [
      "2023-07-25..2023-08-01 two weeks before August 11, 2023",
    ]);
  });

  it("finds nothing in a question without a time, and is not fooled by 'May I'", () => {
    assert.deepEqual(read("May I ask what Caroline likes?"), []);
    assert.deepEqual(read(""), []);
    assert.deepEqual(read("¿Dónde vive Caroline? 卡罗琳住在哪里"), []);
  });
});
