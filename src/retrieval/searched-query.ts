/**
 * How much of a recall query is searched. A question is short; a caller that passes a whole
 * document as the query gets its first QUERY_CHARS characters searched (cut at a word), so one
 * request of any length costs bounded time and never holds the event loop for other callers.
 * Time words are read from a shorter prefix still (asked-time.ts, TIME_WORDS_READ).
 */
import { prefixAtWord } from "../core/text.js";

export const QUERY_CHARS = 4000;

/** The part of a query that recall searches: all of it up to QUERY_CHARS, else a prefix cut at a word. */
export function searchedQuery(query: string): string {
  return prefixAtWord(query, QUERY_CHARS);
}
