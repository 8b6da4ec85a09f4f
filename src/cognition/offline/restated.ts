/**
 * A memory said again inside a longer statement, or told once more as another time of the same
 * thing: two of the obvious rules' readings of "the same fact again" (update-rules.ts), and the
 * spelling slips that would hide a name the memory holds.
 *   - fuller: every name and number of the memory, and nearly all its words, are in the statement,
 *     which says more, as the memory holds (the same tense and first verb; no plan, condition,
 *     dream or end): "As chairperson of the Elmsworth Residents' Association, Rosaura chairs the
 *     annual meeting" beside "Rosaura is the chairperson of the Elmsworth Residents'
 *     Association". One memory can hold both: the statement takes the memory's place, and the
 *     memory is kept as its past.
 *   - again: the statement tells one more time of what the memory names ("again", "as always",
 *     "another day of"), with every name of the memory, none of its own, and a thing the memory
 *     speaks of ("Ate at Blue Minaret again, Zarghuna's kebab spot" beside "Zarghuna opened a kebab
 *     place called Blue Minaret"). The memory holds it, and gains the turn as its evidence.
 */
import { stem } from "../../core/text.js";
import { editDistance } from "../../core/unknown-fields.js";
import { coverage } from "./frame.js";
import { expandSynonyms, inWordField, LIGHT_VERBS, lemmaCount } from "./lexicon.js";
import { nlp } from "./nlp.js";
import { type Reading, sameSubject, TIME_WORDS } from "./statement-reading.js";

/** How a statement says a memory again: whole within more words, or as one more time of it. */
export interface Restatement {
  fuller: boolean;
  why: string;
}

/** Least share of the memory's words a fuller statement must carry (synonyms counted). */
const HELD = 0.9;

/** Words that say a sentence is not told as holding now: a past habit, an end, a condition, a dream. */
const UNSAID =
  /\b(?:used to|until|till|before|after which|if|unless|would|dream\w*|imagin\w*|pretend\w*|wish\w*|former\w*|once)\b/i;

/** Adverbs of one more time (a closed class), and "another" before a noun of time. */
const ONE_MORE_TIME = /\b(?:again|once more|as (?:always|usual|ever))\b/i;
const ANOTHER_TIME = /\banother\s+([a-z]+)\b/gi;

/** Whether the statement says "another" only of a time ("another day of leases", "another shift"). */
export function anotherTime(text: string): boolean {
  const hits = [...text.matchAll(ANOTHER_TIME)];
  return hits.length > 0 && hits.every((h) => timeNoun(h[1]!));
}

function timeNoun(word: string): boolean {
  const w = stem(word.toLowerCase());
  return TIME_WORDS.has(w) || inWordField(w, "noun.time");
}

/** Quantifiers the tagger reads as adjectives ("all Sunday", "more time"): a closed class. */
const QUANTIFIERS = new Set([
  "all",
  "some",
  "many",
  "much",
  "more",
  "most",
  "few",
  "several",
  "every",
  "each",
  "other",
  "same",
  "own",
  "whole",
  "usual",
]);

/** A reading's names (the person's are never among them), without dates. */
function namesOf(r: Reading): string[] {
  return [...r.names].filter((n) => !TIME_WORDS.has(n));
}

/** Whether both are said of one subject: the person (no subject read), or the same one. */
function oneSubject(m: Reading, s: Reading): boolean {
  return m.subject === "" || s.subject === "" || sameSubject(m.subject, s.subject);
}

/** The memory said whole, with more, in the statement: see the file's head. */
export function fuller(m: Reading, s: Reading): Restatement | null {
  if (m.negated !== s.negated || m.plan || s.plan || m.wording.size < 3 || !oneSubject(m, s)) return null;
  // Said as it was, not as a past, a hypothesis, a dream or a state with an end: "played … until
  // the club closed", "would … if", "dreamed she works as".
  if (s.past !== m.past || s.ends || UNSAID.test(s.text)) return null;
  // The memory's own doing heads the statement, not someone else's clause ("taught her son, who
  // now plays mahjong"): its first verb, when the memory has one that is not light.
  const doing = m.verbs.map((v) => stem(v.split(" ")[0]!)).find((v) => !LIGHT_VERBS.has(v));
  if (doing && stem(s.verbs[0]?.split(" ")[0] ?? "") !== doing) return null;
  if (m.amounts && !m.amounts.split(",").every((a) => s.amounts.split(",").includes(a))) return null;
  if (namesOf(m).some((n) => !s.terms.has(n))) return null;
  const held = Math.max(
    coverage(m.wording, expandSynonyms(s.wording)),
    coverage(m.terms, expandSynonyms(s.terms)),
  );
  // More than the memory: words of its own, not the memory's again with its names moved about.
  const more = [...s.wording].filter((t) => !m.terms.has(t) && !TIME_WORDS.has(t)).length;
  if (held < HELD || more < 2) return null;
  return { fuller: true, why: "the statement says all the memory says, and more" };
}

/** One more time of what the memory names: see the file's head. */
export function again(m: Reading, s: Reading): Restatement | null {
  const marker = ONE_MORE_TIME.exec(s.text)?.[0] ?? (anotherTime(s.text) ? "another" : undefined);
  if (!marker || m.negated !== s.negated || s.plan !== m.plan) return null;
  const names = namesOf(m);
  if (names.length === 0 || names.some((n) => !s.terms.has(n))) return null;
  if (namesOf(s).some((n) => !m.terms.has(n))) return null;
  if (s.amounts && !s.amounts.split(",").every((a) => m.amounts.split(",").includes(a))) return null;
  const wide = expandSynonyms(m.nouns);
  const thing = [...s.nouns].find((n) => !m.names.has(n) && !TIME_WORDS.has(n) && wide.has(n));
  if (!thing) return null;
  // Every clause speaks of the memory's thing: "…again and won the league trophy", "…as always,
  // she's got the results back", "…again, broken wrist" carry news beside it.
  const told = new Set([...m.terms, ...m.names, ...s.names]);
  for (const clause of s.text.split(/[,;]|\b(?:and|but|so)\b/i)) {
    const words = (clause.toLowerCase().match(/[\p{L}'-]+/gu) ?? []).map(stem);
    if (words.length > 0 && !words.some((w) => told.has(w))) return null;
  }
  // A state the memory does not give ("Biscuit is ill again") is news about the thing, not it again.
  const states = (nlp(s.text).adjectives().out("array") as string[])
    .map((a) => a.toLowerCase().replace(/[^a-z-]/g, ""))
    .filter((a) => !QUANTIFIERS.has(a))
    .map(stem);
  if (states.some((a) => !m.terms.has(a))) return null;
  return {
    fuller: false,
    why: `the statement tells of the memory's ${names.join(" ")} once more ("${marker.toLowerCase()}", ${thing})`,
  };
}

/**
 * The statement's reading with a word one slip away from a name the memory holds read as that
 * name ("bexhil" for Bexhill, "Zarguna" for Zarghuna): a word of five letters or more that
 * English does not know, one edit (a letter added, dropped, changed or swapped) from the name.
 */
export function withNamesSpelledAs(s: Reading, m: Reading): Reading {
  const names = namesOf(m).filter((n) => n.length >= 5);
  if (names.length === 0) return s;
  const fix = (t: string) =>
    s.terms.has(t) && !m.terms.has(t) && t.length >= 4 && lemmaCount(t) === 0
      ? (names.find((n) => n[0] === t[0] && editDistance(n, t) === 1) ?? t)
      : t;
  const swap = (set: Set<string>) => new Set([...set].map(fix));
  const terms = swap(s.terms);
  if ([...terms].every((t) => s.terms.has(t))) return s;
  const fixed = new Set([...s.terms].filter((t) => fix(t) !== t).map(fix));
  return {
    ...s,
    terms,
    wording: swap(s.wording),
    nouns: swap(s.nouns),
    heads: swap(s.heads),
    names: new Set([...s.names, ...fixed]),
  };
}
