/**
 * What the offline engine reads in a sentence to tell a standing instruction or preference ("from
 * now on, keep answers short", "I'd rather you used metric") from talk that only looks like one: a
 * request about the answer at hand, a habit of the past, someone else's rule, a question. Each
 * feature is read from the parse (mood, person, tense), from WordNet's word classes (verbs of
 * feeling, nouns of communication and of food, verbs that end something), or from the few function
 * words that set how long a request holds ("always", "this time"). A model trained on labelled
 * sentences (learned/standing-model.ts, `npm run train -- standing`) weighs them.
 */
import { stem } from "../../core/text.js";
import { inWordField, verbAspect } from "./lexicon.js";
import { nlp } from "./nlp.js";

/** Feature names, in the order `standingFeatures` returns their values. */
export const STANDING_FEATURES = [
  "imperative",
  "please",
  "second-person",
  "first-person-subject",
  "lasting",
  "one-off",
  "feeling-verb",
  "rather",
  "communication-noun",
  "food-noun",
  "ending-verb",
  "negation",
  "question",
  "past",
  "third-person-subject",
  "hypothetical",
  "obligation",
  "first-person-state",
  "no-verb",
  "only",
  "length",
] as const;

/**
 * Words that make a request hold from now on, and words that keep it to the moment. These are the
 * closed class of English time adverbials of frequency and scope, not topic words.
 */
const LASTING =
  /\b(always|never|from now on|going forward|from here on|in (the )?future|whenever|every time|each time|any ?time|by default|all the time|as a rule|in general|generally|consistently|anymore|any more|no longer|ever again|again)\b/i;
const ONE_OFF =
  /\b(this (one|time|answer|reply|version|draft)|that one|for now|right now|just (this|now)|today|tonight|at the moment)\b/i;
const HYPOTHETICAL = /\b(if|would|could|might|imagine|suppose|supposing|what if|wonder)\b/i;
const OBLIGATION = /\b(should|must|need to|needs to|have to|has to|got to|ought to|make sure)\b/i;
const NEGATION = /\b(not|no|never|nothing|none|without)\b|n['’]t\b/i;
const SECOND_PERSON = /\b(you|your|yours|yourself)\b/i;
const FIRST_PERSON_START = /^\W*(i|i['’](m|d|ve|ll)|my|we|our)\b/i;
const FIRST_PERSON_STATE = /\b(i['’]m|i am|we['’]re|we are)\b/i;
const THIRD_PERSON_START =
  /^\W*(he|she|they|his|her|their|my (\w+)|[A-Z][a-z]+ (says|said|always|never|likes|wants|told))\b/;

/** The features of one sentence, in STANDING_FEATURES order. */
export function standingFeatures(sentence: string): number[] {
  const doc = nlp(sentence);
  const terms = doc.terms().json() as { terms: { text: string; tags: string[] }[] }[];
  const words = terms.map((t) => t.terms[0]!);
  const has = (w: { tags: string[] }, tag: string) => w.tags.includes(tag);
  // Imperative: the first verb is in its base form and nothing that could be its subject (a noun
  // or pronoun) comes before it; adverbs, negation, "please" and "from now on" may.
  const firstVerb = words.findIndex((w) => has(w, "Verb") && !has(w, "Auxiliary"));
  const auxFirst = words.findIndex((w) => has(w, "Verb"));
  const subjectBefore = (end: number) => words.slice(0, end).some((w) => has(w, "Noun") || has(w, "Pronoun"));
  const imperative =
    firstVerb >= 0 &&
    (has(words[firstVerb]!, "Infinitive") || has(words[firstVerb]!, "Imperative")) &&
    !subjectBefore(firstVerb) &&
    // "Can you…", "Do you…": a question's auxiliary first is not a command.
    !(
      auxFirst >= 0 &&
      auxFirst < firstVerb &&
      /^(can|could|do|does|did|will|would|is|are)$/i.test(words[auxFirst]!.text)
    );
  const stems = words.map((w) => stem(w.text.toLowerCase().replace(/[^a-z]/g, "")));
  const nouns = words.filter((w) => has(w, "Noun") && !has(w, "Pronoun"));
  const verbs = words.filter((w) => has(w, "Verb"));
  const stemOf = (w: { text: string }) => stem(w.text.toLowerCase().replace(/[^a-z]/g, ""));
  const past =
    words.some((w) => has(w, "PastTense") && !has(w, "Auxiliary")) || /\bused to\b/i.test(sentence);
  return [
    imperative ? 1 : 0,
    /\bplease\b/i.test(sentence) ? 1 : 0,
    SECOND_PERSON.test(sentence) ? 1 : 0,
    FIRST_PERSON_START.test(sentence) ? 1 : 0,
    LASTING.test(sentence) ? 1 : 0,
    ONE_OFF.test(sentence) ? 1 : 0,
    verbs.some((w) => inWordField(stemOf(w), "verb.emotion")) ? 1 : 0,
    /\brather\b/i.test(sentence) ? 1 : 0,
    nouns.some((w) => inWordField(stemOf(w), "noun.communication")) ? 1 : 0,
    nouns.some((w) => inWordField(stemOf(w), "noun.food")) ? 1 : 0,
    stems.some((s) => verbAspect(s) === "end") ? 1 : 0,
    NEGATION.test(sentence) ? 1 : 0,
    /\?\s*$/.test(sentence) ? 1 : 0,
    past ? 1 : 0,
    THIRD_PERSON_START.test(sentence) ? 1 : 0,
    HYPOTHETICAL.test(sentence) ? 1 : 0,
    OBLIGATION.test(sentence) ? 1 : 0,
    FIRST_PERSON_STATE.test(sentence) ? 1 : 0,
    verbs.length === 0 ? 1 : 0,
    /\bonly\b/i.test(sentence) ? 1 : 0,
    Math.min(words.length, 40) / 20,
  ];
}
