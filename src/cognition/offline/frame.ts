/**
 * A statement parsed into a frame: what it is about (content terms without the person's name),
 * its verbs, tense, polarity, modality (a plan or wish rather than a fact) and numbers. The
 * learned pair operator and relation linker read frames instead of matching cue phrases.
 */

import { contentTokens, namePattern, stem } from "../../core/text.js";
import { type Aspect, verbAspect } from "./lexicon.js";
import { nlp } from "./nlp.js";

export interface Frame {
  /** Stemmed content terms, the person's name left out. */
  terms: Set<string>;
  /**
   * Those of `terms` written as names ("Claire", "Leeds", but also "Monday"): capitalised words the
   * tagger calls proper nouns or that do not open their sentence. A name that opens a sentence and
   * that the tagger does not know ("Biscuit barks") is missed.
   */
  names: Set<string>;
  /** Infinitives of the verbs ("moved" -> "move"), auxiliaries left out. */
  verbs: string[];
  tense: "past" | "present" | "future" | null;
  /** The statement denies or ends something ("not", "no longer", "never", "n't"). */
  negated: boolean;
  /** A plan, wish or intention rather than a fact. */
  plan: boolean;
  /** Numbers in the statement ("two cats" -> 2, "£4k" -> 4). */
  numbers: number[];
  /** The statement speaks in the first person ("I", "my"). */
  firstPerson: boolean;
  /** What the statement does to a state: its verbs' aspects, and "continue" for "still". */
  aspects: Set<Aspect | "continue">;
}

/** Every aspect a frame can carry, in a fixed order (feature columns follow it). */
export const FRAME_ASPECTS = ["end", "begin", "change", "continue"] as const;

/**
 * Aspectual adverbs, a closed class of English grammar: "still" continues a state; "now",
 * "instead", "anymore" mark a change; "no longer" and "over" an end.
 */
const ADVERB_ASPECT: [RegExp, Aspect | "continue"][] = [
  [/\b(still|as usual|as before|continues? to)\b/, "continue"],
  // "six years now" tells how long a state has held, not that it changed.
  [
    /(?<!\b(?:years?|yrs?|months?|weeks?|wks?|days?|hours?|hrs?|while|ages|decades?)\s)\b(now|instead|anymore|any more|these days|switched)\b/,
    "change",
  ],
  [/\b(no longer|is over|are over|was over|done|ended)\b/, "end"],
];

/** Verbs whose complement is wanted or intended, not yet real. */
const INTENT_VERBS = new Set([
  "want",
  "plan",
  "hope",
  "intend",
  "aim",
  "wish",
  "consider",
  "dream",
  "think",
  "look",
  "like",
  "love",
  "try",
  "mean",
  "need",
  "expect",
  "prepare",
]);

/**
 * Whether a verb says a wish or intention. "like" and "love" do only after "would" ("would love to
 * visit"): "likes to swim" is a habit, and the tagger also reads the preposition ("tea up there
 * like a waiter") as the verb.
 */
function intent(verb: string, lower: string): boolean {
  if (!INTENT_VERBS.has(verb)) return false;
  if (verb !== "like" && verb !== "love") return true;
  return /\b(?:would|'d)\s+(?:like|love)\b/.test(lower);
}

const NEGATION = /\b(not|no|never|no longer|nobody|nothing|none|neither|nor|without)\b|n['’]t\b/i;

/** Sentences whose readings are kept, at most; the cache starts over when full. */
const QUANTIFIED_MAX = 4096;
const quantified = new Map<string, Quantities>();

/** The numbers a statement gives, and whether it is negated, read from one parse. */
interface Quantities {
  /** The tagger finds a negation ("not", "never", "isn't"). */
  negative: boolean;
  /** Each number with the noun it counts or measures (see `measures`). */
  measures: readonly [string, number][];
  /** Every number that is not part of a date or an ordinal ("1400", "two", "£500"). */
  amounts: readonly number[];
}

function quantities(text: string): Quantities {
  // Each sentence meets several others (a summary sentence its five candidates, a memory every
  // new sentence near it), and a parse costs milliseconds: parse each sentence once.
  const known = quantified.get(text);
  if (known) return known;
  const doc = nlp(text);
  const negative = doc.has("#Negative");
  const measures: [string, number][] = [];
  doc.match("#Value+ (a|an|per|every)? #Noun").forEach((phrase) => {
    // Tags are read in the whole sentence: "19 May" alone would lose its date reading. A
    // duration or rate ("a month", "fifty years") is a measure; a calendar date is not.
    const head = phrase.match("#Noun").last();
    if (phrase.has("#Year") || head.has("#Month") || head.has("#WeekDay")) return;
    const value = ([] as number[]).concat(nlp(phrase.text()).numbers().get())[0];
    const noun = (head.text("normal") as string).replace(/[^a-z]/g, "");
    if (typeof value === "number" && noun) measures.push([stem(noun), value]);
  });
  const amounts: number[] = [];
  const numbers = doc.numbers();
  const values = ([] as unknown[]).concat(numbers.get());
  let i = 0;
  numbers.forEach((n) => {
    const value = values[i++];
    // The tagger reads "a" ("a week") as a number without a value: not an amount.
    if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      n.has("#Date") ||
      n.has("#Year") ||
      n.has("#Ordinal")
    )
      return;
    // A bare four-digit year ("since 2021") is not always tagged as one.
    if (/^\d{4}$/.test(n.text("normal")) && value >= 1900 && value <= 2100) return;
    // "one" standing for a noun ("a quiet one", "this one") counts nothing; "one cat" and "one of
    // my sisters" do.
    if (n.text("normal") === "one" && !n.lookAhead("^#Adjective? #Noun").found && !n.lookAhead("^of").found)
      return;
    amounts.push(value);
  });
  const out = { negative, measures, amounts };
  if (quantified.size >= QUANTIFIED_MAX) quantified.clear();
  quantified.set(text, out);
  return out;
}

/**
 * The measures a statement gives: a number with the noun it counts or measures, "15 km a week" ->
 * ["km", 15], "two cats" -> ["cat", 2], "1,350 a month" -> ["month", 1350]. Dates ("19 May",
 * "2024") are not measures.
 */
export function measures(text: string): readonly [string, number][] {
  return quantities(text).measures;
}

/**
 * The amounts a statement gives, without dates, ordinals or bare years: "rent is 1,350 a month,
 * since 2021" -> [1350].
 */
export function amounts(text: string): readonly number[] {
  return quantities(text).amounts;
}

/**
 * The summary states an amount the memory does not ("Rent went up to 1400" beside "rent is 1200 a
 * month"): then the memory cannot already hold it. Dates and ordinals are left out, since
 * summaries restate old facts with the day they were told.
 */
export function statesNewAmount(memory: string, summary: string): boolean {
  // The summary's amounts first: the memory is parsed only when the summary gives some.
  const given = amounts(summary);
  if (given.length === 0) return false;
  const known = amounts(memory);
  return given.some((n) => !known.includes(n));
}

/**
 * Does the tagger read a negation in the statement ("not", "never", "isn't")? From the same
 * parse, kept with its amounts.
 */
export function taggedNegative(text: string): boolean {
  return quantities(text).negative;
}

/** Parses one statement; `about` is the person's name (its words are not content terms). */
export function parseFrame(text: string, about = ""): Frame {
  const named = /^\p{Lu}/u.test(about) ? about : "";
  let plain = text;
  for (const name of named.split(/,\s*/).filter(Boolean)) plain = plain.replace(namePattern(name, "g"), " ");
  const doc = nlp(plain);
  const verbs: { inf: string; tense: string; negative: boolean; aux: string }[] = doc
    .verbs()
    .json()
    .map(
      (v: {
        verb?: { infinitive?: string; grammar?: { tense?: string }; negative?: boolean; auxiliary?: string };
      }) => ({
        inf: (v.verb?.infinitive ?? "").toLowerCase(),
        tense: v.verb?.grammar?.tense ?? "",
        negative: Boolean(v.verb?.negative),
        aux: (v.verb?.auxiliary ?? "").toLowerCase(),
      }),
    );
  const first = verbs[0];
  const tense = !first
    ? null
    : /Future/.test(first.tense) || /\b(will|gonna|going to)\b/.test(first.aux)
      ? "future"
      : /Past/.test(first.tense)
        ? "past"
        : "present";
  const numbers = doc.numbers().get();
  const lower = plain.toLowerCase();
  const aspects = new Set<Aspect | "continue">();
  for (const v of verbs) {
    const aspect = verbAspect(stem(v.inf.split(" ")[0] ?? ""));
    if (aspect) aspects.add(aspect);
  }
  for (const [pattern, aspect] of ADVERB_ASPECT) if (pattern.test(lower)) aspects.add(aspect);
  const terms = new Set(contentTokens(plain).map(stem));
  // A name is a word written with a capital that the tagger calls a proper noun or that does not
  // open its sentence; the tagger alone would also take "sister" in "my sister Laura". A word in
  // capitals ("I GOT THE JOB") is shouting, not a name (an acronym such as "UCLA" is missed).
  const sentences = doc.json() as { terms: { text: string; tags: string[] }[] }[];
  const capitalised = sentences.flatMap((sentence) =>
    sentence.terms.flatMap((t, i) => {
      if (!/^\p{Lu}/u.test(t.text)) return [];
      if (/^\p{Lu}{2,}\b/u.test(t.text)) return [];
      return t.tags.includes("ProperNoun") || i > 0 ? [t.text] : [];
    }),
  );
  const names = new Set(
    contentTokens(capitalised.join(" "))
      .map(stem)
      .filter((t) => terms.has(t)),
  );
  return {
    terms,
    names,
    verbs: verbs.map((v) => v.inf.split(" ")[0]!).filter(Boolean),
    tense,
    negated: verbs.some((v) => v.negative) || NEGATION.test(lower),
    plan:
      tense === "future" ||
      verbs.some((v) => intent(v.inf.split(" ")[0]!, lower)) ||
      // The tagger may read "hopes" as a noun once the name before it is taken out.
      /\b(gonna|about to|planning|thinking of|hoping|keen to|would like|(?:hopes?|wants?|plans?|intends?|aims?) to)\b/.test(
        lower,
      ) ||
      goingToDo(text),
    numbers: Array.isArray(numbers) ? numbers.filter((n): n is number => typeof n === "number") : [],
    firstPerson: /\b(i|i'm|im|my|me|mine|we|our)\b/i.test(text),
    aspects,
  };
}

/** Share of `of`'s terms found in `by` (0 when `of` is empty). */
export function coverage(of: Set<string>, by: Set<string>): number {
  if (of.size === 0) return 0;
  let n = 0;
  for (const t of of) if (by.has(t)) n++;
  return n / of.size;
}

/**
 * "going to" with a verb is a plan ("going to start piano"); with a place or a person it is where
 * one goes ("stopped going to Marisa", "going to the gym on Fridays").
 */
function goingToDo(text: string): boolean {
  return /\bgoing to\b/i.test(text) && nlp(text).has("going to #Adverb? #Verb");
}
