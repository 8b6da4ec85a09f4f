/**
 * How text becomes BM25 terms, close to a standard English full-text analyzer (Lucene's
 * EnglishAnalyzer, tantivy's default with stemming): lower case, a possessive "'s" dropped, the
 * other apostrophes folded ("don't" -> "dont"), split on anything but letters and digits, function
 * words dropped, then the Porter stemmer. Every number stays ("3 kids", "5k", "2022").
 *
 * It is apart from core/text.ts's `terms` on purpose: that one feeds the offline cognition's
 * overlap rules, and its stop list drops open-class words ("like", "up", "own", "ill", "well")
 * and its light stemmer misses pairs ("movie"/"movies") — losses a search index should not take.
 */
import { porterStem } from "./porter-stemmer.js";

/**
 * Closed-class words only: articles, pronouns, auxiliaries, prepositions, conjunctions, question
 * words and chat interjections, with the folded forms of their contractions. Words that can carry
 * the topic stay in, even when common ("like", "up", "out", "well", "ill", "may", "will" as a noun
 * is the exception we accept): BM25's IDF already weighs them down where they are frequent.
 */
export const BM25_STOPWORDS = new Set(
  (
    "a an the and or but if then so of to in on at by for with from about as into over after before than " +
    "i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs " +
    "this that these those there here what which who whom whose when where why how " +
    "is am are was were be been being do does did doing have has had having can will would could should " +
    "all any both each few more most other some such no nor not only same too very just also really now " +
    "yeah yes oh ok okay hey hi um uh " +
    "im ive youre youve youll youd hes shes thats theres whats dont doesnt didnt cant wont isnt arent " +
    "wasnt werent havent hasnt hadnt wouldnt couldnt shouldnt lets " +
    "s t re ve ll d m"
  ).split(" "),
);

/** Lower-case word tokens: possessive "'s" dropped, other apostrophes folded. */
export function bm25Tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/(\p{L})['’]s\b/gu, "$1")
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Stems already computed: a scope's vocabulary is small beside its word count. Cleared when full. */
const stems = new Map<string, string>();
const STEMS_KEPT = 200_000;

function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEMS_KEPT) stems.clear();
    s = porterStem(word);
    stems.set(word, s);
  }
  return s;
}

/** The terms BM25 indexes and queries: tokens less function words, Porter-stemmed. */
export function bm25Terms(text: string): string[] {
  return bm25Tokens(text)
    .filter((t) => !BM25_STOPWORDS.has(t))
    .map(stem);
}
