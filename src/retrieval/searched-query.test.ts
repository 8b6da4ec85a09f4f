/** A recall query is searched up to QUERY_CHARS, cut at a word beyond that. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { QUERY_CHARS, searchedQuery } from "./searched-query.js";

test("a query up to the limit is searched whole", () => {
  const query = "x".repeat(QUERY_CHARS);
  assert.equal(searchedQuery(query), query);
});

test("a longer query is cut at the last word that fits", () => {
  const words = "word ".repeat(QUERY_CHARS); // 5 × QUERY_CHARS characters
  const searched = searchedQuery(words);
  assert.ok(searched.length <= QUERY_CHARS);
  assert.ok(searched.length > QUERY_CHARS - 5);
  assert.match(searched, /^(word )*word$/);
});

test("a longer query with no space is cut hard at the limit", () => {
  assert.equal(searchedQuery("y".repeat(QUERY_CHARS + 10)).length, QUERY_CHARS);
});
