/**
 * Chat is typed fast: "befor work evry day", "wierd", "bwtter", "thes days". The summarizer reads
 * such slips as the words meant before it scores and rewrites a sentence, so a memory says
 * "before work every day" and the rules see "these days".
 *
 * A noisy-channel reading over Hunspell's English dictionaries (US and British spelling, read
 * with nspell): a word neither dictionary knows is set beside every known word one slip away (a
 * letter dropped, doubled or left single, two letters swapped, a key struck beside the right one,
 * one vowel for another). Each slip has a cost; a word of the tagger's own lexicon (compromise's
 * common words) costs less, a word of a closed class (determiners, prepositions, adverbs…) less
 * still. The cheapest reading wins when it is clearly the cheapest, or, where two open-class
 * words are as cheap, when WordNet's tagged corpus meets one five times as often as the other
 * ("stoped": stopped, not stooped). A rare word is taken only when it is the one word a slip could
 * make, so "monstera" is not read as "monsters".
 *
 * Left as typed: a word with a capital (a name), or where a name stands in lower case ("my dog
 * rudi"), with an apostrophe or a letter outside a–z, of three letters or fewer, or with no
 * vowel ("tbh", "wks"); slang the tagger knows ("lol"). A slip
 * that makes another real word ("form" for "from") cannot be seen word by word and stays.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { stem } from "../../core/text.js";
import { inWordField, lemmaCount } from "./lexicon.js";
import { lexiconTag } from "./nlp.js";

interface Speller {
  correct(word: string): boolean;
}

let spellers: Speller[] | undefined;

/** The US and British dictionaries, read on first use (about 0.35 s and 23 MB). */
function dictionaries(): Speller[] {
  if (spellers) return spellers;
  const require = createRequire(import.meta.url);
  const nspell = require("nspell") as (aff: Uint8Array, dic: Uint8Array) => Speller;
  // The dictionary packages are ES modules that read their files with a top-level await; their
  // files are read here directly, so the summarizer stays synchronous.
  spellers = ["dictionary-en", "dictionary-en-gb"].map((name) => {
    const dir = dirname(require.resolve(name));
    return nspell(readFileSync(join(dir, "index.aff")), readFileSync(join(dir, "index.dic")));
  });
  return spellers;
}

function known(word: string): boolean {
  const capital = word[0]!.toUpperCase() + word.slice(1);
  return dictionaries().some((d) => d.correct(word) || d.correct(capital));
}

/** A known word spelled in lower case (a name's "April" is not a reading of "apirl"). */
function knownLower(word: string): boolean {
  return dictionaries().some((d) => d.correct(word));
}

const KEY_ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const KEY_AT = new Map<string, [number, number]>();
KEY_ROWS.forEach((row, y) => {
  [...row].forEach((key, x) => {
    KEY_AT.set(key, [x + y * 0.5, y]);
  });
});

function besideOnKeyboard(a: string, b: string): boolean {
  const p = KEY_AT.get(a);
  const q = KEY_AT.get(b);
  return Boolean(p && q && Math.hypot(p[0] - q[0], p[1] - q[1]) < 1.3);
}

const VOWEL = /[aeiou]/;
/** What a slip in a word's first letter costs beyond the slip itself. */
const FIRST_LETTER = 0.5;

/** Prefixes and endings that make a known word into another ("repotting", "bouldering"). */
const PREFIXES = /^(?:re|un|pre|mis|dis|over|out|co|non|sub|super|under|up|down|self)(?=[a-z]{3})/;
const SUFFIXES = /(?:ing|ed|er|ers|s|es|ly|ness|ful|less|ish|y)$/;

/**
 * Whether the word is a known word with a prefix or an ending the dictionaries do not list it
 * with: a real word, not a slip.
 */
function derived(word: string): boolean {
  const stems = new Set<string>();
  const unprefixed = word.replace(PREFIXES, "");
  for (const w of new Set([word, unprefixed])) {
    if (w !== word) stems.add(w);
    const bare = w.replace(SUFFIXES, "");
    if (bare !== w && bare.length >= 3) {
      stems.add(bare);
      stems.add(`${bare}e`);
      // "potting" -> "pot": a doubled last letter before the ending.
      if (/([b-df-hj-np-tv-z])\1$/.test(bare)) stems.add(bare.slice(0, -1));
    }
  }
  return [...stems].some((s) => s.length >= 3 && known(s));
}

/** Word classes of the tagger's lexicon that are closed: a slip in one is the commonest kind. */
const CLOSED_CLASSES = new Set([
  "Determiner",
  "Preposition",
  "Conjunction",
  "Pronoun",
  "Copula",
  "Modal",
  "Auxiliary",
  "QuestionWord",
  "Adverb",
]);

/** Endings whose stem in the tagger's lexicon makes the word common too ("finally", "opened"). */
const ENDINGS: [RegExp, string][] = [
  [/ily$/, "y"],
  [/ly$/, ""],
  [/ies$/, "y"],
  [/es$/, ""],
  [/s$/, ""],
  [/ed$/, "e"],
  [/ed$/, ""],
  [/ing$/, "e"],
  [/ing$/, ""],
];

/** What a word's commonness takes off a reading's cost: 0 for a word the tagger does not know. */
function commonness(word: string): number {
  const tag = lexiconTag(word);
  if (tag !== undefined) return CLOSED_CLASSES.has(tag) ? 1.5 : 1;
  return ENDINGS.some(([end, put]) => end.test(word) && lexiconTag(word.replace(end, put)) !== undefined)
    ? 0.8
    : 0;
}

interface Reading {
  word: string;
  slip: number;
}

/** Every known word one slip from the typed one, with what the slip costs. */
function readings(typed: string): Reading[] {
  const out = new Map<string, number>();
  // A slip in the first letter is rare: people start a word right.
  const add = (word: string, slip: number, at: number) => {
    const cost = at === 0 ? slip + FIRST_LETTER : slip;
    if (word.length > 1 && cost < (out.get(word) ?? Number.POSITIVE_INFINITY) && knownLower(word))
      out.set(word, cost);
  };
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let i = 0; i <= typed.length; i++) {
    const before = typed.slice(0, i);
    const after = typed.slice(i);
    // A letter dropped ("befor"); cheaper when it was a double ("realy").
    for (const l of letters) add(before + l + after, l === typed[i - 1] || l === typed[i] ? 0.5 : 1, i);
    if (i === typed.length) break;
    const here = typed[i]!;
    // A letter too many: doubled ("untill"), or struck beside its neighbour ("hekp" has one of these).
    const extra =
      here === typed[i - 1] || here === typed[i + 1]
        ? 0.5
        : besideOnKeyboard(here, typed[i - 1] ?? "") || besideOnKeyboard(here, typed[i + 1] ?? "")
          ? 1
          : 2;
    add(before + after.slice(1), extra, i);
    // Two letters swapped ("freind").
    if (i + 1 < typed.length) add(before + typed[i + 1] + here + after.slice(2), 1, i);
    // One key for another: beside it on the keyboard, or a vowel for a vowel ("seperate").
    for (const l of letters) {
      if (l === here) continue;
      const near = besideOnKeyboard(here, l) || (VOWEL.test(here) && VOWEL.test(l));
      add(before + l + after.slice(1), near ? 1 : 2.5, i);
    }
  }
  return [...out].map(([word, slip]) => ({ word, slip }));
}

/** Most a reading may cost, and how much cheaper than the next it must be. */
const MAX_COST = 1.2;
const MARGIN = 0.15;
/**
 * A word that is a known word with a prefix or an ending is read for a slip only when the slip
 * costs less than this: "stoped" is "stopped", but "bouldering" is no "shouldering".
 */
const DERIVED_MAX_COST = -0.25;

const CACHE_MAX = 10_000;
const repaired = new Map<string, string | null>();

/** How much more often one of two equally cheap readings must be met to be taken ("stopped", "stooped"). */
const FREQUENCY_RATIO = 5;

/** How often a word's lemma was met: the word itself, or the word with an ending taken off. */
function frequency(word: string): number {
  const lemmas = [
    word,
    ...ENDINGS.filter(([end]) => end.test(word)).map(([end, put]) => word.replace(end, put)),
  ];
  // "stopped" -> "stop": a doubled last letter before the ending.
  const doubled = /([b-df-hj-np-tv-z])\1(?:ed|ing)$/.exec(word);
  if (doubled) lemmas.push(word.slice(0, doubled.index + 1));
  return Math.max(...lemmas.map(lemmaCount));
}

/**
 * The readings re-ranked where the cheapest tie: of readings within MARGIN of the cheapest, one
 * met FREQUENCY_RATIO times as often as each other one comes first, clear of them.
 */
function byFrequency<T extends { word: string; cost: number }>(ranked: T[]): T[] {
  const tied = ranked.filter((r) => r.cost - ranked[0]!.cost < MARGIN);
  if (tied.length < 2) return ranked;
  // WordNet counts open-class words only: beside a closed-class word ("these" for "thes") the
  // counts say nothing.
  if (tied.some((r) => CLOSED_CLASSES.has(lexiconTag(r.word) ?? ""))) return ranked;
  const counted = tied.map((r) => ({ r, n: frequency(r.word) })).sort((a, b) => b.n - a.n);
  const [top, second] = counted;
  if (top!.n === 0 || top!.n < FREQUENCY_RATIO * second!.n) return ranked;
  // The frequent one takes the tie; the rest fall a margin behind it.
  const rest = ranked
    .filter((r) => r !== top!.r)
    .map((r) => ({ ...r, cost: Math.max(r.cost, top!.r.cost + MARGIN) }));
  return [top!.r, ...rest];
}

/** The clearly cheapest reading of a typed word, or null when none is clear. */
function bestReading(typed: string): { word: string; cost: number } | null {
  const ranked = readings(typed)
    .map((r) => ({ ...r, common: commonness(r.word) }))
    .map((r) => ({ ...r, cost: r.slip - r.common }))
    .sort((a, b) => a.cost - b.cost);
  const [best, next] = ranked.length > 1 ? byFrequency(ranked) : ranked;
  return best &&
    best.cost <= MAX_COST &&
    (!next || next.cost - best.cost >= MARGIN) &&
    (best.common > 0 || ranked.length === 1)
    ? best
    : null;
}

/** The word meant by a typed word no dictionary knows, or null when no reading is clear. */
export function wordMeant(typed: string): string | null {
  const cached = repaired.get(typed);
  if (cached !== undefined) return cached;
  const best = bestReading(typed);
  const meant = best && (best.cost <= DERIVED_MAX_COST || !derived(typed)) ? best.word : null;
  if (repaired.size >= CACHE_MAX) repaired.clear();
  repaired.set(typed, meant);
  return meant;
}

/**
 * Whether the word stands where chat puts a name in lower case: right after a word for a person
 * or an animal ("my grandma folake", "my dog rudi"; WordNet's noun.person and noun.animal), after
 * "named" or "called", or after a preposition of place ("at teva", "in hilo").
 */
function nameSlot(text: string, at: number): boolean {
  // "1 daughter, salote": a comma may stand between the word and the name.
  const before = /([a-z]+),?\s+$/i.exec(text.slice(Math.max(0, at - 40), at))?.[1]?.toLowerCase();
  if (!before) return false;
  // "named rudi", and a place or a firm after a preposition of place ("work at teva", "in hilo").
  if (/^(?:named|called|at|in|from)$/.test(before)) return true;
  // "my sistr agata": the word before may be a slip itself, read as the word it meant.
  const word = before.length >= 4 && !known(before) ? (wordMeant(before) ?? before) : before;
  const s = stem(word);
  return inWordField(s, "noun.person") || inWordField(s, "noun.animal");
}

/** Whether a word is one to read for slips at all: see the file's head. */
function checkable(word: string, text: string, at: number): boolean {
  if (word.length < 4 || !/^[a-z]+$/.test(word) || !/[aeiouy]/.test(word)) return false;
  if (text[at - 1] === "'" || text[at + word.length] === "'") return false;
  return lexiconTag(word) === undefined && !known(word) && !nameSlot(text, at);
}

/** The text with each typed slip read as the word meant; every other character as written. */
export function withSlipsRepaired(text: string): string {
  return text.replace(/\p{L}+/gu, (word: string, at: number) =>
    checkable(word, text, at) ? (wordMeant(word) ?? word) : word,
  );
}
