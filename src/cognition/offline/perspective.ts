/**
 * Rewrites a speaker's first-person sentence into a statement about them, from the listener's
 * point of view: "I'm moving to Bristol" said by Sam becomes "Sam is moving to Bristol".
 * Second person ("you") becomes the addressee. Verb agreement follows the new subject.
 */

import { escapeRegExp } from "../../core/text.js";
import { inVerbClass } from "./lexicon.js";
import { nlp } from "./nlp.js";

const conjugated = new Map<string, string>();

/** A verb's forms as the tagger conjugates it (undefined: not read as a verb), by lower-case word. */
type VerbForms =
  | { PastTense?: string; PresentTense?: string; Infinitive?: string; Participle?: string }
  | undefined;
const verbForms = new Map<string, VerbForms>();

/** A lower-case word's forms as a verb, conjugated once per word (the summarizer asks too). */
export function formsOf(lower: string): VerbForms {
  if (!verbForms.has(lower)) verbForms.set(lower, nlp(lower).verbs().conjugate()[0] as VerbForms);
  return verbForms.get(lower);
}

const MODALS = new Set([
  "can",
  "could",
  "will",
  "would",
  "shall",
  "should",
  "may",
  "might",
  "must",
  "ought",
  "need",
  "dare",
  "used",
]);
const NOT_VERBS = new Set([
  "and",
  "or",
  "but",
  "too",
  "also",
  "so",
  "as",
  "not",
  "no",
  "to",
  "the",
  "a",
  "an",
]);

/**
 * Third-person singular present form of the verb after "I" ("love" -> "loves", "live" ->
 * "lives"). Past forms, modals and gerunds are kept. In a declarative sentence the word after
 * "I" is a verb, so a word the tagger is unsure of is still conjugated by spelling rules.
 */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const cached = conjugated.get(lower);
  if (cached !== undefined) return cached;
  let out = verb;
  const doc = nlp(lower);
  const term = doc.json()[0]?.terms?.[0] as { tags?: string[] } | undefined;
  const tags = new Set(term?.tags ?? []);
  // Alone, some past forms read as adjectives ("lost", "left"); after "I" they read as verbs.
  const pastAfterI = (
    nlp(`I ${lower} it`).json()[0]?.terms?.[1] as { tags?: string[] } | undefined
  )?.tags?.includes("PastTense");
  const keep =
    MODALS.has(lower) ||
    NOT_VERBS.has(lower) ||
    tags.has("PastTense") ||
    pastAfterI ||
    tags.has("Gerund") ||
    tags.has("Modal") ||
    lower.endsWith("ed") ||
    lower.endsWith("ing");
  if (!keep) {
    const forms = tags.has("Verb") ? formsOf(lower) : undefined;
    if (forms?.PresentTense && !forms.PresentTense.includes(" ")) out = forms.PresentTense;
    else if (/[^aeiou]y$/.test(lower)) out = `${lower.slice(0, -1)}ies`;
    else if (/(s|sh|ch|x|z|o)$/.test(lower)) out = `${lower}es`;
    else out = `${lower}s`;
  }
  conjugated.set(lower, out);
  return out;
}

/**
 * Whether a verb's past form is spelled as its base ("read", "put", "cut"): in a sentence set
 * in the past, such a verb after "I" is past tense and keeps its spelling. Any other verb is
 * conjugated as usual: "on 15 April 2024 I started the job, and I no longer work nights".
 */
function ownPastForm(verb: string): boolean {
  const lower = verb.toLowerCase();
  const forms = formsOf(lower);
  return !forms?.PastTense || forms.PastTense === lower;
}

/**
 * Whether a verb (with the word after it, for a phrasal one) is one of stopping: "I quit", "I
 * cut out sugar". Stopping is an event, so such a verb whose past is spelled as its base is
 * read as past tense: "Sam cut out sugar", not the habit "Sam cuts out sugar".
 */
function stopping(verb: string, next: string | undefined): boolean {
  const lower = verb.toLowerCase();
  return inVerbClass(lower, "stop") || (next !== undefined && inVerbClass(`${lower} ${next.trim()}`, "stop"));
}

const ADVERBS =
  "(?:(?:just|still|also|really|never|always|often|usually|finally|recently|actually|totally|definitely|only|even|sometimes|truly|absolutely|already|no longer|now|mostly|rarely)\\s+){0,2}";

interface Subject {
  name: string;
  possessive: string;
}

function possessive(name: string): string {
  return name.endsWith("s") ? `${name}'` : `${name}'s`;
}

/** Replaces first- and second-person forms; `speaker` said the text to `listener`. */
/** Words that put a sentence in the past, where "I put" or "I read" are past tense too. */
const PAST_CONTEXT =
  /\b(yesterday|ago|last|earlier|once|when i was|back then|used to|on (?:\d{1,2} )?\p{L}+ \d{4})\b/iu;

export function toThirdPerson(sentence: string, speaker: string, listener: string | null): string {
  const me: Subject = { name: speaker, possessive: possessive(speaker) };
  // Casual writing drops the capital ("i drive my mom's van", "im moving"): the pronoun is still
  // "I". Only a word standing alone counts: not "i.e.", "Hawai'i", "i-phone" or a path's "/i/".
  let s = sentence
    .replace(/[’]/g, "'")
    .replace(/(^|\s)i(?=['\s,;!?]|\.?$)/g, "$1I")
    .replace(/(^|\s)im(?=\s)/g, "$1I'm");
  const past = PAST_CONTEXT.test(s);
  s = swapPerson(s, "I", me, true, past);
  s = s
    .replace(/\bwe're\b/gi, `${me.name} and others are`)
    .replace(/\bwe've\b/gi, `${me.name} and others have`)
    .replace(/\bwe'll\b/gi, `${me.name} and others will`)
    .replace(/\bwe'd\b/gi, `${me.name} and others would`)
    .replace(/\bwe\b/gi, `${me.name} and others`)
    .replace(/\bour\b/gi, me.possessive)
    .replace(/\bours\b/gi, me.possessive)
    .replace(/\bus\b/g, `${me.name} and others`);
  if (listener) s = swapPerson(s, "you", { name: listener, possessive: possessive(listener) }, false, past);
  return s;
}

/** The plural forms of the verbs a coordinated subject ("Claire and I") contracts or says. */
const PLURAL: Record<string, string> = {
  "'m": " are",
  " am": " are",
  "'ve": " have",
  "'ll": " will",
  "'d": " would",
};

function swapPerson(text: string, pronoun: "I" | "you", who: Subject, first: boolean, past: boolean): string {
  let s = text;
  const P = pronoun === "I" ? "I" : "you";
  const flags = pronoun === "I" ? "g" : "gi";
  const rule = (pattern: string, replacement: string) => {
    s = s.replace(new RegExp(pattern, flags), replacement);
  };
  const n = who.name;
  // "Claire and I have separated": a person and the speaker, at the start of a clause, are a
  // plural subject, so the verb keeps its plural form. The tagger tells a person ("Claire", "my
  // wife") from "Oh and I…", "Exhausted and I…" or a list ("hiking, swimming and I run"), whose
  // "I" starts a clause of its own and stays singular.
  const pair = new RegExp(
    `((?:^|[,;:.!?]\\s*)((?:[Mm]y|[Oo]ur|[Tt]he|[Hh]is|[Hh]er|[Yy]our) )?([A-Za-z]+) and )${P}('m| am|'ve|'ll|'d)?\\b`,
    flags,
  );
  s = s.replace(
    pair,
    (all, lead: string, owner: string | undefined, word: string, verb: string | undefined) => {
      const person = nlp(`${owner ?? ""}${word}`)
        .terms()
        .last();
      if (!person.has("#Noun")) return all;
      return `${lead}${n}${verb ? PLURAL[verb] : ""}`;
    },
  );
  rule(`\\b${P}'m not\\b|\\b${P} am not\\b|\\b${P} are not\\b|\\b${P} aren't\\b`, `${n} is not`);
  rule(`\\b${P}'m\\b|\\b${P} am\\b|\\b${P}'re\\b|\\b${P} are\\b`, `${n} is`);
  rule(`\\b${P} was\\b|\\b${P} were\\b`, `${n} was`);
  rule(`\\b${P} wasn't\\b|\\b${P} weren't\\b`, `${n} wasn't`);
  rule(`\\b${P}'ve\\b|\\b${P} have\\b`, `${n} has`);
  rule(`\\b${P} haven't\\b`, `${n} hasn't`);
  rule(`\\b${P} don't\\b|\\b${P} do not\\b`, `${n} doesn't`);
  rule(`\\b${P} do\\b`, `${n} does`);
  rule(`\\b${P}'d\\b`, `${n} would`);
  rule(`\\b${P}'ll\\b`, `${n} will`);
  // "I (really) love" -> "Sam (really) loves". A word with a capital or an 's after the pronoun
  // is a name, not a verb: "send you Ava's list" keeps "Ava's".
  s = s.replace(
    new RegExp(`\\b${P}\\s+(${ADVERBS})([A-Za-z]+)\\b('s)?(?=(\\s+[a-z]+)?)`, flags),
    (_m, adverbs: string, verb: string, owned: string | undefined, next: string | undefined) =>
      owned || /^[A-Z]/.test(verb)
        ? `${n} ${adverbs}${verb}${owned ?? ""}`
        : `${n} ${adverbs}${(past || stopping(verb, next)) && ownPastForm(verb) ? verb : thirdPerson(verb)}`,
  );
  rule(`\\b${P}\\b`, n);
  if (first) {
    rule("\\bme\\b", n);
    rule("\\bmy\\b", who.possessive);
    rule("\\bMy\\b", who.possessive);
    rule("\\bmine\\b", who.possessive);
    rule("\\bmyself\\b", "themselves");
  } else {
    rule("\\byour\\b", who.possessive);
    rule("\\byours\\b", who.possessive);
    rule("\\byourself\\b", "themselves");
  }
  return s;
}

/**
 * The reverse, for replies: a statement about `name` told back to them in the second person
 * ("Sam is moving to Bristol" -> "you are moving to Bristol"). Only the common forms are
 * turned; others keep the name, which is still correct English.
 */
export function toSecondPerson(statement: string, name: string): string {
  const n = escapeRegExp(name);
  const poss = new RegExp(`\\b${n}'s?\\b`, "g");
  return statement
    .replace(new RegExp(`\\b${n} is\\b`, "g"), "you are")
    .replace(new RegExp(`\\b${n} was\\b`, "g"), "you were")
    .replace(new RegExp(`\\b${n} has\\b`, "g"), "you have")
    .replace(new RegExp(`\\b${n} doesn't\\b`, "g"), "you don't")
    .replace(new RegExp(`\\b${n} does\\b`, "g"), "you do")
    .replace(new RegExp(`\\b${n} and others\\b`, "g"), "you and others")
    .replace(poss, "your")
    .replace(new RegExp(`\\b${n}\\b`, "g"), "you");
}
