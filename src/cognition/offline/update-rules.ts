/**
 * The obvious rules of keeping memory current, decided before any operator or model: how a new
 * statement about a person bears on one memory of theirs.
 *   - same: the same fact again (the same words, or other words with the same names, numbers and
 *     polarity, and no word of change; a part of the memory said again; "still" with half its
 *     words): no new memory; the memory gains the new evidence.
 *   - stop: the statement puts an end to what the memory holds ("quit", "gave up", "cancelled",
 *     "no longer", "not … any more"): the memory retires and the stop is kept as its own memory.
 *   - change: the statement leaves one state for another ("switched", "moved", "sold … bought",
 *     "replaced … with", "now", "these days", "instead", a new role for the person) on the
 *     memory's topic: the memory retires, the statement is kept.
 *   - addition: the statement adds to what the memory holds ("another", "a second", "also",
 *     "too", "as well", "my other", or a new name beside the memory's under the same noun, "my
 *     friend Tom" beside "my friend Ana"): both stay.
 * Each is a mechanism over the statement's parse (frame.ts), WordNet's verb classes (stopping
 * and changing verbs, `update` in data/lexicon/wordnet.json, built by lab/train/build-lexicon.ts)
 * and English's closed classes of determiners and adverbs, not a list of example sentences.
 * Anything else is left to the operator (null).
 */
import { escapeRegExp, stem, terms } from "../../core/text.js";
import { MONTHS, WEEKDAYS } from "../../core/time.js";
import { amounts, coverage, parseFrame } from "./frame.js";
import {
  expandBroader,
  expandSynonyms,
  inVerbClass,
  inWordField,
  LIGHT_VERBS,
  lexicalRelations,
  slotsOf,
  type VerbClassName,
} from "./lexicon.js";
import { lexiconTag, nlp } from "./nlp.js";
import { formsOf } from "./perspective.js";
import { HABITUAL } from "./salience.js";

export type UpdateRuleName = "same" | "stop" | "change" | "addition";

export interface UpdateRuleMatch {
  rule: UpdateRuleName;
  /** Why, in a sentence, for the operation log. */
  why: string;
}

/**
 * Determiners and adverbs that add to a set (a closed class of English): "another", an ordinal
 * or "other" after a determiner, "also", "too" ending a clause, "as well", "besides", "one more".
 */
const ADDITIVE =
  /\b(another|also|as well|in addition|besides|one more|(?:a|an)\s+(?:second|third|fourth|fifth)\b|(?:my|his|her|their|our|\w+'s)\s+other\b(?!\s+half))|\btoo\b(?=\s*(?:now|already|again|these days)?\s*(?:[.,!?;]|$))/i;
/** The additive determiners that bring in another one of a kind: "another", "a second", "my other". */
const NEW_ONE = /^(?:another|one more|(?:a|an)\s|(?:my|his|her|their|our|\w+'s)\s+other(?!\s+half))/i;
/** Adverbs that mark a state as replacing an earlier one (a closed class). */
const NOW_ADVERBS =
  /(?<!\b(?:years?|yrs?|months?|weeks?|wks?|days?|hours?|hrs?|while|ages|decades?)\s)\b(now(?! that)|nowadays|these days|instead|from now on|at this point)\b/i;
/** Adverbs that say a state goes on (a closed class): "still", "as ever", "as usual". */
const CONTINUING = /\b(still|as ever|as always|as usual)\b/i;
/**
 * "no longer", "not … any more", "no more", "done with": the end of a state without a verb of
 * stopping (negative adverbs and quantifiers, a closed class, and the idiom of being finished).
 */
const ENDED =
  /\bno longer\b|\bno more\b(?!\s+than)|\bdone with\b(?![^.;,]*\bfor (?:today|tonight|now|the (?:day|week|night|evening)))|(?:\bnot|n't|\bnever)\b[^.;]*\bany ?more\b/i;
/** Where what ENDED ends begins ("no more bingo", "done with snooker", "no longer at the school"). */
const ENDED_AT = /\bno longer\b|\bno more\b(?!\s+than)|\bdone with\b|(?:\bnot|n't|\bnever)\b/i;
/**
 * "left" with an object ("having left Dodoma", "left the cafe"), which the tagger can read as an
 * adjective: a determiner, a possessive or a name after it makes it the verb (not "turned left").
 */
const LEFT_OBJECT = /\b(?:left|leaving)\s+(?:(?:the|a|an|my|his|her|their|our)\s+|\p{Lu})/u;
/** Leaving for a while, or leaving someone in another's care: "left Rex with his mum for the weekend". */
const LEFT_A_WHILE =
  /\b(?:left|leav\w*)\b[^.;,]*\b(?:with|behind|for (?:a|an|the|\d+)\s+(?:[\w']+\s+)?(?:week|weekend|day|night|while|month|holiday|trip|break|bit|few|hours?|days|weeks))\b/i;
/** Adverbs of frequency and degree that change how often or how much (a closed class), as written. */
const DEGREE_WORDS =
  /\b(?:hardly|rarely|barely|seldom|every other|less often|more often|never|sometimes|occasionally)\b/i;
/** Adverbs of frequency and degree (a closed class), stemmed as terms are. */
const DEGREE =
  /^(?:hardly|rare|rarely|barely|seldom|other|less|more|never|sometim|occasional|occasionally|often|alway|usual|usually)$/;
/** "rather than", "instead of": what follows is what the statement leaves. */
const INSTEAD_OF = /\b(?:rather than|instead of)\b/i;
/** Acquiring, as the second half of "sold X and bought Y", "gave away X and got Y". */
const ACQUIRE = new Set(["buy", "get", "adopt", "purchase", "lease", "rent", "order", "pick"]);
interface Reading {
  text: string;
  /** Lower case, the person's name and punctuation out, spaces single. */
  plain: string;
  terms: Set<string>;
  /** Names written with a capital (stemmed). */
  names: Set<string>;
  /**
   * Nouns written in lower case, and the last word of each name of several words (stemmed): the
   * kinds of thing the statement speaks of.
   */
  nouns: Set<string>;
  /** Infinitives of the verbs, phrasal ones whole ("give up"). */
  verbs: string[];
  amounts: string;
  negated: boolean;
  plan: boolean;
  /** The statement ends or changes a state (its verbs' aspects, "over", "no longer"). */
  ends: boolean;
  /**
   * Who or what the statement's first verb is said of, in lower case with its adverbs of time
   * out ("now kai" -> "kai"); empty when only a pronoun or nothing stands there.
   */
  subject: string;
  /** The first verb is in the past ("felt", "used to work"): an event told, not a state that holds. */
  past: boolean;
  /** The statement begins a state (its verbs' aspects: "started", "became"; "first day as"). */
  begins: boolean;
  /** The role the person is given ("is a cashier", "works as a nurse"): its head noun, stemmed. */
  role: string | null;
  /** `terms` without the words of numbers ("twelve", "12"): `amounts` compares those. */
  wording: Set<string>;
  /** The nouns that head their noun phrase ("tea" in "green tea", not in "a tea shop"). */
  heads: Set<string>;
}

const READ_MAX = 4096;
const readings = new Map<string, Reading>();

function read(text: string, about: string): Reading {
  const key = `${about}\u0000${text}`;
  const known = readings.get(key);
  if (known) return known;
  const frame = parseFrame(text, about);
  const nameTerms = new Set(terms(about.replace(/,/g, " ")));
  const doc = nlp(text);
  const nouns = new Set<string>(
    (
      doc.nouns().not("#ProperNoun").not("#Pronoun").json() as {
        terms?: { text: string; tags: string[] }[];
      }[]
    )
      .flatMap((n) => n.terms ?? [])
      .filter((t) => t.tags.includes("Noun") && !t.tags.includes("ProperNoun") && /^[a-z]/.test(t.text))
      .map((t) => stem(t.text.toLowerCase().replace(/[^a-z]/g, "")))
      .filter((t) => t && !nameTerms.has(t)),
  );
  // A gerund that governs nothing names an activity ("engineering", "; swimming.").
  const tagged = doc.terms().json() as { text: string; terms: { tags: string[] }[] }[];
  const heads = new Set<string>();
  tagged.forEach((t, i) => {
    const next = tagged[i + 1]?.terms[0]?.tags ?? [];
    const key = stem(t.text.toLowerCase().replace(/[^a-z]/g, ""));
    const ends = /[;,.!?]$/.test(t.text) || next.length === 0 || next.includes("Noun");
    if (t.terms[0]?.tags.includes("Gerund") && ends && !next.includes("Pronoun")) nouns.add(key);
    // The last noun of a noun phrase is its head: "tea" in "green tea", not in "a tea shop".
    if (nouns.has(key) && (/[;,.!?]$/.test(t.text) || !next.includes("Noun"))) heads.add(key);
  });
  // The last word of a name of several words says what kind of thing it is ("the Beskydy Hiking
  // Club", "the Ostrava Philatelic Society").
  for (const name of text.match(/\b(?:[A-Z][\w'-]+\s+){1,3}[A-Z][a-z]+\b/g) ?? [])
    nouns.add(stem(name.split(/\s+/).at(-1)!.toLowerCase()));
  const verbList = doc.verbs().json({ offset: true }) as {
    verb?: { infinitive?: string; grammar?: { tense?: string } };
    offset?: { start: number };
  }[];
  const verbs = verbList.map((v) => (v.verb?.infinitive ?? "").toLowerCase()).filter(Boolean);
  const first = verbList[0];
  const values = new Set(
    (doc.match("#Value").terms().out("array") as string[]).map((w) =>
      stem(w.toLowerCase().replace(/[^a-z0-9]/g, "")),
    ),
  );
  const termSet = new Set([...frame.terms].filter((t) => !nameTerms.has(t)));
  const reading: Reading = {
    text,
    plain: plainOf(text, about),
    terms: termSet,
    names: new Set([...frame.names].filter((t) => !nameTerms.has(t))),
    nouns,
    verbs,
    amounts: [...amounts(text)].sort((a, b) => a - b).join(","),
    negated: frame.negated,
    plan: frame.plan,
    ends:
      frame.aspects.has("end") ||
      frame.aspects.has("change") ||
      /\b(over|gone|cleared up|better|healed)\b/i.test(text),
    subject: subjectOf(text.slice(0, first?.offset?.start ?? 0)),
    past: first?.verb?.grammar?.tense === "PastTense",
    begins: frame.aspects.has("begin") || /\bfirst\s+(?:day|week|month|shift|year)\s+as\b/i.test(text),
    role: roleOf(text, about),
    wording: new Set([...termSet].filter((t) => !values.has(t) && !/^\d/.test(t))),
    heads,
  };
  if (readings.size >= READ_MAX) readings.clear();
  readings.set(key, reading);
  return reading;
}

/** Words that end a role's noun phrase: prepositions, conjunctions, relatives. */
const ROLE_END =
  /^(?:at|in|on|for|with|from|of|to|and|but|or|who|that|which|since|so|because|now|instead|these)$/;

/**
 * The person's role: the head of "<person> is a …", "<person> works as a …" or a bare "as a …"
 * (the statement's own person), when WordNet's noun.person file has it ("cashier", "loan
 * officer", "dept head"); stemmed. Null when the statement gives the person no role.
 */
function roleOf(text: string, about: string): string | null {
  const names = about
    .split(/,\s*/)
    .filter(Boolean)
    .map((n) => escapeRegExp(n));
  if (names.length === 0) return null;
  const person = `(?:${names.join("|")})`;
  const shape = new RegExp(
    `(?:\\b${person}\\s+(?:is|was|works as|worked as|is working as|started as|became|becomes)|(?:^|[^a-z]\\s*)as)\\s+(?:now\\s+)?(?:a|an)\\s+([a-z][a-z\\s-]*)`,
    "i",
  );
  const hit = shape.exec(text);
  if (!hit) return null;
  const words: string[] = [];
  for (const w of hit[1]!.split(/\s+/)) {
    if (!w || ROLE_END.test(w.toLowerCase()) || words.length === 4) break;
    words.push(w.toLowerCase());
  }
  // The last word that can name a person: "loan officer", and "cashier" in "a cashier paid in".
  const head = words.findLast((w) => inWordField(stem(w), "noun.person") || agentNoun(w));
  return head ? stem(head) : null;
}

/**
 * A noun for one who does what a verb says, by its ending: "instructer" (as typed), "baker",
 * "investor". WordNet lists the usual spellings; the ending reads the rest.
 */
function agentNoun(word: string): boolean {
  const base = /^([a-z]{3,}?)(?:e?r|or)$/.exec(word)?.[1];
  if (!base) return false;
  const undoubled = base.replace(/([b-df-hj-np-tv-z])\1$/, "$1");
  return [base, `${base}e`, undoubled].some((b) => lexiconTag(b) === "Infinitive");
}

/** Pronouns stand for someone the statement does not name. */
const PRONOUN_SUBJECT = /^(?:i|you|he|she|it|we|they|this|that|these|those|there)$/;

/** The words before a statement's first verb as its subject: see `Reading.subject`. */
function subjectOf(before: string): string {
  const words = before
    .toLowerCase()
    .replace(/\b(?:now|nowadays|these days|lately|recently|currently|at this point|still|also)\b/g, " ")
    .replace(/\b(?:the|a|an)\b/g, " ")
    .replace(/[^a-z0-9'\s-]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  // "they're": the verb was read inside the pronoun's own word.
  const subject = words.join(" ").replace(/'(?:re|s|m|ve|d|ll)$/, "");
  return PRONOUN_SUBJECT.test(subject) ? "" : subject;
}

function plainOf(text: string, about: string): string {
  let t = text.toLowerCase();
  for (const name of about.split(/,\s*/).filter(Boolean))
    t = t.replace(new RegExp(`\\b${escapeRegExp(name.toLowerCase())}('s)?\\b`, "g"), " ");
  return t
    .replace(/\b(i|i'm|my|me|mine)\b/g, " ")
    .replace(/[^a-z0-9\s]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The verb of a class the statement uses ("gave up" -> "give up"), if any. */
function verbOf(r: Reading, kind: VerbClassName): string | undefined {
  for (const v of r.verbs) {
    const words = v.split(" ");
    // The tagger may leave a particle out of the verb ("packed in the band" read as "pack"): the
    // word after the verb, as written, makes the phrasal verb.
    const particle =
      words.length === 1
        ? new RegExp(`${verbPattern(v).source}\\s+(\\w+)`, "i").exec(r.text)?.[1]
        : undefined;
    const phrasal = particle ? `${v} ${particle.toLowerCase()}` : "";
    for (const candidate of [v, words.slice(0, 2).join(" "), phrasal, words[0]!])
      if (candidate && inVerbClass(candidate, kind)) return candidate;
  }
  return undefined;
}

/** Parents too broad to say what was ended ("thing", "activity", "person"). */
const BROAD = new Set(
  ["thing", "activity", "act", "person", "object", "entity", "event", "matter", "group", "way"].map(stem),
);

/** Weekdays, months and seasons: a shared date is not a shared topic. */
const TIME_WORDS = new Set(
  [
    ...WEEKDAYS,
    ...MONTHS,
    ...["weekend", "week", "spring", "summer", "autumn", "winter", "today", "yesterday", "tomorrow"],
    ...["year", "month", "day", "morning", "evening", "night", "time", "moment"],
  ].map(stem),
);

/** Terms the two share, synonyms counted (WordNet senses); light verbs, dates and numbers left out. */
function sharedTerms(a: Set<string>, b: Set<string>): string[] {
  const wide = expandSynonyms(b);
  return [...a].filter(
    (t) => !LIGHT_VERBS.has(t) && !TIME_WORDS.has(t) && !/\d/.test(t) && (b.has(t) || wide.has(t)),
  );
}

/** Where the phrase a verb governs ends: a clause boundary, or a preposition of time or cause. */
const PHRASE_END =
  /[,;:.!?]|\b(?:and|but|because|since|after|before|when|while|so|as|for good|for now|last|this|next|ago)\b/i;
/** Where what a replacing verb leaves ends: "replaced the oil boiler with a heat pump". */
const REPLACED_END = /[,;:.!?]|\b(?:with|for|by|and|but|because|since|after|when|while|so)\b/i;
/** Where what a change leaves ends: "from Leeds to Bristol" leaves Leeds. */
const FROM_END = /[,;:.!?]|\b(?:to|into|for|and|but|because|since|after|when|while|so)\b/i;

/**
 * The phrase a stopping or leaving word governs ("quit running for good" -> "running", "no
 * longer works night shifts" -> "works night shifts", "sold the Honda and bought…" -> "the
 * Honda"), as terms: its nouns when it has some (the thing ended), else all its content terms.
 */
function governed(text: string, at: RegExp, about: string, ends = PHRASE_END): Set<string> {
  const hit = at.exec(text);
  if (!hit) return new Set();
  const rest = text.slice(hit.index + hit[0].length);
  const end = ends.exec(rest);
  let phrase = (end ? rest.slice(0, end.index) : rest).trim();
  // A terse turn kept as its own words names the thing, then a colon, then the verb ("Snus: quit",
  // "Ruslan: banya: stopped"): with nothing after the verb, the thing before the colon. Not in a
  // sentence ("after the old captain retired" ends nothing of the captain's).
  if (!phrase) {
    const before = text
      .slice(0, hit.index)
      .split(/[,;.!?]/)
      .at(-1)!;
    if (/:\s*$/.test(before)) phrase = before.replace(/:\s*$/, "").split(":").at(-1)!.trim();
  }
  if (!phrase) return new Set();
  const r = read(phrase.endsWith(".") ? phrase : `${phrase}.`, about);
  const content = (set: Set<string>) => new Set([...set].filter((t) => !TIME_WORDS.has(t) && !/\d/.test(t)));
  // The phrase is no sentence: a capital opening it is a name too ("left Dodoma at the end of March").
  const opening = /^\p{Lu}[\p{L}'-]+/u.exec(phrase)?.[0];
  const person = new Set(terms(about.replace(/,/g, " ")));
  const named = opening && !person.has(stem(opening.toLowerCase())) ? [stem(opening.toLowerCase())] : [];
  const things = content(new Set([...r.nouns, ...r.names, ...named]));
  return things.size > 0 ? things : content(r.terms);
}

/**
 * A head noun of the memory and a different head noun of the statement under one WordNet parent
 * sense ("coffee" and "tea"), or in one slot of a life ("car" and "van" are vehicles: see
 * `slotsOf`), as [memory's, statement's]; else null.
 */
function sameKind(s: Reading, m: Reading): [string, string] | null {
  const mine = [...m.heads].filter((n) => !TIME_WORDS.has(n) && !BROAD.has(n));
  const theirs = [...s.heads].filter((n) => !TIME_WORDS.has(n) && !BROAD.has(n));
  for (const a of mine)
    for (const b of theirs) {
      if (a === b) continue;
      const r = lexicalRelations(new Set([a]), new Set([b]));
      if (r.antonyms > 0) continue;
      if (r.related > 0 || slotsOf(a).some((slot) => slotsOf(b).includes(slot))) return [a, b];
    }
  return null;
}

/**
 * Whether the statement itself tells of a stop ("quit, my wife's idea", "no longer on cetirizine",
 * "sold the Fiesta"), whatever memory it meets: such a statement is remembered as a memory of its
 * own, so nothing that ends a state may drop it (a stop is kept, never retired with the habit).
 */
/** Whether the statement's subject is the person (or left out), not someone of theirs ("Sam's son"). */
function ownSubject(r: Reading): boolean {
  return !/\w's?\s+\w|s'\s+\w|\b(?:his|her|their|my|our)\s+\w/.test(r.subject);
}

/**
 * Whether the statement denies a stop ("Bori won't stop staring at the hutch"): it says a state
 * goes on, so it closes nothing.
 */
export function deniesStop(statement: string, about: string): boolean {
  const s = read(statement, about);
  // "Rex won't stop barking, and Sam quit smoking" denies one stop and tells another.
  return stopVerbsOf(s).length > 0 && liveStop(s) === undefined && !parting(s) && !ENDED.test(s.text);
}

/** Every verb of stopping the statement uses, in order ("won't stop", then "quit"). */
function stopVerbsOf(r: Reading): string[] {
  return r.verbs.flatMap((v) => {
    const one = verbOf({ ...r, verbs: [v] }, "stop");
    return one ? [one] : [];
  });
}

/** The first verb of stopping the statement does not deny. */
function liveStop(r: Reading): string | undefined {
  return stopVerbsOf(r).find((v) => !denial(v).test(r.text));
}

/** "won't stop", "didn't quit", "never gave up": a stopping verb denied. */
function denial(verb: string): RegExp {
  return new RegExp(`(?:\\bnot|n't|\\bnever)\\s+(?:\\w+\\s+)?${verbPattern(verb).source}`, "i");
}

export function statesStop(statement: string, about: string): boolean {
  const s = read(statement, about);
  if (s.plan) return false;
  const verb = liveStop(s) ?? parting(s);
  if (verb) return !denial(verb).test(s.text);
  return ENDED.test(s.text);
}

/**
 * What the memory holds: the phrase its first verb governs, up to a clause's end or a preposition
 * of purpose ("drives a Ford Fiesta", "owns a canal boat called De Reiger"), as terms and names.
 */
function heldBy(m: Reading, about: string): Set<string> {
  const verb = m.verbs[0]?.split(" ")[0];
  // Where the tagger finds no verb, the memory's first clause up to a purpose or a reason.
  const phrase = verb
    ? governed(m.text, verbPattern(verb), about, REPLACED_END)
    : governed(m.text, /^/, about, PURPOSE_END);
  return phrase.size > 0 ? phrase : new Set([...m.terms, ...m.names]);
}

/** Where a memory's first clause ends when no verb was read: a clause boundary, a purpose, a reason. */
const PURPOSE_END = /[,;:.!?]|\b(?:for|because|since|so|when|while)\b/i;

/**
 * Parting with a thing one had ("sold the Fiesta", "gave away the bike"): what was owned is no
 * longer, as a stop ends a habit. Only when nothing was got in its place in the same statement:
 * "sold X and bought Y" is a change (see `updateRule`).
 */
function parting(s: Reading): string | undefined {
  if (s.verbs.some((v) => ACQUIRE.has(v.split(" ")[0]!))) return undefined;
  return s.verbs.find((v) => v === "sell" || v.startsWith("sell ") || v.startsWith("give away"))
    ? s.verbs.find((v) => v.startsWith("give away"))
      ? "give away"
      : "sell"
    : undefined;
}

/** The words of a stopping verb as written ("gave up" for "give up", "quit"), for `governed`. */
function verbPattern(lemma: string): RegExp {
  // The tagger's lemma is chat's words ("(re)build", "c++"): only letters make a pattern.
  if (!/^[a-z]+(?: [a-z]+)*$/i.test(lemma)) return NEVER;
  const [head, ...rest] = lemma.split(" ");
  const forms = head === "leave" ? "leav\\w*|left" : `${head!.replace(/e$/, "")}\\w*`;
  // An irregular past ("bought", "drove") as the tagger conjugates the verb.
  const past = formsOf(head!)?.PastTense;
  const irregular = [
    IRREGULAR_PAST[head!],
    past && /^[a-z]+$/i.test(past) && !past.startsWith(head!.replace(/e$/, "")) ? past : undefined,
  ]
    .filter(Boolean)
    .map((f) => `|${f}`)
    .join("");
  return new RegExp(`\\b(?:${forms}${irregular})\\b${rest.map((w) => `\\s+${w}`).join("")}`, "i");
}

/** A pattern that matches nothing. */
const NEVER = /(?!)/;

const IRREGULAR_PAST: Record<string, string> = {
  give: "gave|given",
  sell: "sold",
  leave: "left",
  quit: "quit",
};

/**
 * Whether the text sets one of `names` right beside a word of the noun `kind`: "friend Tom", "a
 * dog called Pixel", "Pixel, a greyhound" (an apposition, the way a new one of a kind is named).
 */
function namedBy(text: string, kind: string, names: string[]): boolean {
  const words = text.split(/\s+/).map((w) => w.replace(/[^A-Za-z',-]/g, ""));
  const isName = (w: string | undefined) =>
    Boolean(w && /^[A-Z]/.test(w) && names.includes(stem(w.replace(/[^A-Za-z'-]/g, "").toLowerCase())));
  return words.some((w, i) => {
    if (stem(w.replace(/[^A-Za-z'-]/g, "").toLowerCase()) !== kind) return false;
    // "friend Tom", "a dog called Pixel", "Pixel, a greyhound": right beside it, or with "called".
    const after = words[i + 1];
    if (isName(after)) return true;
    // The noun as the last word of the name itself: "the Beskydy Hiking Club".
    if (/^[A-Z]/.test(w) && isName(words[i - 1])) return true;
    if (/^(?:called|named)$/i.test(after ?? "") && isName(words[i + 2])) return true;
    const before = words.slice(Math.max(0, i - 3), i);
    return isName(before[0]) && /,$/.test(before[0] ?? "") && before.length > 1;
  });
}

/**
 * Whether a verb of changing is used as one: in a past form ("switched", "moved") or with its
 * particle ("switch to", "move out"). The tagger reads "night shifts r mon-thu" as a verb.
 */
function asVerb(text: string, lemma: string): boolean {
  const head = lemma.split(" ")[0]!.replace(/e$/, "");
  // "swapped", "swopped": a short verb doubles its last letter before the ending.
  const doubled = `${head.at(-1)}?`;
  return new RegExp(
    `\\b${head}${doubled}(?:e?d|t)\\b|\\b${head}e?s?\\s+(?:from|to|into|over|out|in|up)\\b`,
    "i",
  ).test(text);
}

/** Whether two statements say the same thing: see the file's head. */
function sameFact(m: Reading, s: Reading, cosine: number | undefined): string | null {
  if (m.plain === s.plain) return "the same words";
  if (m.negated !== s.negated) return null;
  // "every other Friday", "hardly": how often or how much changed.
  if (DEGREE_WORDS.exec(s.text)?.[0].toLowerCase() !== DEGREE_WORDS.exec(m.text)?.[0].toLowerCase())
    return null;
  // A statement whose numbers are all the memory's may be part of it ("plays bass in The Amber
  // Foxes" within "…The Amber Foxes, mostly 80s stuff"); other numbers are another fact.
  const sAmounts = s.amounts ? s.amounts.split(",") : [];
  const within = sAmounts.every((a) => m.amounts.split(",").includes(a));
  if (m.amounts !== s.amounts && !within) return null;
  // Each side's names among the other's words: chat in lower case ("still in leeds") writes the
  // same names without their capitals.
  if ([...m.names].some((n) => !s.terms.has(n)) || [...s.names].some((n) => !m.terms.has(n))) return null;
  if (
    ADDITIVE.test(s.text) ||
    NOW_ADVERBS.test(s.text) ||
    verbOf(s, "stop") ||
    verbOf(s, "change") ||
    parting(s)
  )
    return null;
  if (s.plan !== m.plan) return null;
  // "Stomach bug over" beside "has a stomach bug": the same words, but one ends the other.
  if (s.ends && !m.ends) return null;
  // Numbers are compared as amounts above, so their words may be left out ("twelve", "12"); a
  // number word can also be a synonym of another ("ten", "decade"): the better of the two counts.
  const there = Math.max(
    coverage(s.wording, expandSynonyms(m.wording)),
    coverage(s.terms, expandSynonyms(m.terms)),
  );
  const back = Math.max(
    coverage(m.wording, expandSynonyms(s.wording)),
    coverage(m.terms, expandSynonyms(s.terms)),
  );
  // Nothing the memory does not already say: a part of it, said again.
  if (there >= 0.9 && s.names.size > 0 && s.terms.size >= 3)
    return "nothing the memory does not say: its names, numbers and words";
  if (m.amounts !== s.amounts) return null;
  // The memory said again with an aside ("Busy tonite, Mei plays mahjong every friday…"): all its
  // words are there, and besides them at most two, none naming a thing ("and a cat" is news) or
  // done ("sold", "visited").
  const wideMemory = expandSynonyms(m.wording);
  const aside = [...s.wording].filter((t) => !wideMemory.has(t) && !TIME_WORDS.has(t));
  // "hardly", "every other": how often or how much is no aside.
  const degree = aside.some((t) => DEGREE.test(t));
  const doing = new Set(s.verbs.map((v) => stem(v.split(" ")[0]!)));
  if (
    back >= 0.9 &&
    m.wording.size >= 3 &&
    aside.length <= 2 &&
    !degree &&
    !aside.some((t) => s.nouns.has(t) || doing.has(t))
  )
    return "the memory's words again, with an aside";
  if (there >= 0.8 && back >= 0.8) return "the same names, numbers and words (synonyms counted)";
  // The same names besides the person's and the same numbers: "Mango is twelve" and "Sam's
  // cockatiel Mango is 12" are one fact in other words.
  if (s.names.size > 0 && s.amounts !== "" && there >= 0.3 && back >= 0.3)
    return "the same names and the same numbers";
  if (cosine !== undefined && cosine >= 0.9 && there >= 0.6 && back >= 0.6)
    return `the same names and numbers, and close in meaning (cosine ${cosine.toFixed(2)})`;
  // "still", "as ever": the statement says a state goes on, so it is the memory's state again
  // when it keeps the memory's names and half its words each way (the rest is the day's news).
  const going = CONTINUING.exec(s.text)?.[0];
  if (going && !CONTINUING.test(m.text) && there >= 0.5 && back >= 0.5)
    return `the same names and numbers, and "${going}" says the state goes on`;
  return null;
}

/**
 * How a new statement bears on one memory about the same person, or null when no rule decides.
 * `about` is the person's display name (its words are not content); `cosine`, when known, is the
 * two sentences' similarity under the engine's encoder.
 */
export function updateRule(
  memory: string,
  statement: string,
  about: string,
  cosine?: number,
): UpdateRuleMatch | null {
  const m = read(memory, about);
  const s = read(statement, about);
  const same = sameFact(m, s, cosine);
  if (same) return { rule: "same", why: `the same fact again: ${same}` };
  // A plan or a wish ("wants to quit smoking") changes nothing yet.
  if (s.plan) return null;
  const memoryTerms = new Set([...m.terms, ...m.names]);
  // A stop: the thing a stopping verb (or "no longer", "not … any more") governs is what the
  // memory holds, and the memory is not itself a stop.
  // The newer rules below read only what the person does: "Sam's neighbour sold his Fiesta" ends
  // nothing of Sam's.
  const own = ownSubject(s);
  const stopVerb =
    (stopVerbsOf(s).length > 0 ? liveStop(s) : undefined) ??
    (((s.verbs.some((v) => v.startsWith("leave")) && !/\bleft\s+(?:at|in|on|to|into|onto)\b/i.test(s.text)) ||
      LEFT_OBJECT.test(s.text)) &&
    !LEFT_A_WHILE.test(s.text)
      ? "leave"
      : undefined) ??
    // Selling a thing ends owning it, not a habit of selling ("sells cakes every Saturday", "sells
    // kittens to families").
    (HABITUAL.test(m.text) || m.verbs.some((v) => v.startsWith("sell")) || !own ? undefined : parting(s));
  // "won't stop staring", "didn't quit": a stopping verb denied stops nothing.
  const denied = stopVerb ? denial(stopVerb).test(s.text) : false;
  if (!denied && !verbOf(m, "stop") && !ENDED.test(m.text)) {
    const ended = stopVerb
      ? governed(s.text, verbPattern(stopVerb), about)
      : ENDED.test(s.text)
        ? governed(s.text, ENDED_AT, about)
        : new Set<string>();
    // What is sold is what the memory holds, not a thing it names in passing ("bought a Volvo for
    // towing his caravan" is not ended by selling the caravan).
    const held = stopVerb && stopVerb === parting(s) ? heldBy(m, about) : memoryTerms;
    // What is ended may be the broader thing: "gave up alcohol" ends "a glass of wine".
    const shared = sharedTerms(ended, held);
    if (shared.length === 0)
      shared.push(...sharedTerms(ended, expandBroader(held)).filter((t) => !BROAD.has(t)));
    // "night shifts" do not end "day shifts": an opposite between the two says another thing.
    if (shared.length > 0 && lexicalRelations(s.terms, m.terms).antonyms === 0)
      return {
        rule: "stop",
        why: `the statement ends what the memory holds ("${stopVerb ?? ENDED_AT.exec(s.text)?.[0].toLowerCase() ?? "no longer"}": ${shared.join(", ")})`,
      };
  }
  const additive = ADDITIVE.exec(s.text)?.[0];
  // A verb of changing that the memory has as a thing ("night shifts r mon-thu" beside "does night
  // shifts") was misread: it is the memory's noun, not a change.
  const changing = verbOf(s, "change");
  const changeVerb =
    changing && !m.nouns.has(stem(changing.split(" ")[0]!)) && asVerb(s.text, changing)
      ? changing
      : undefined;
  const sold = s.verbs.some((v) => v.startsWith("sell") || v.startsWith("give away"));
  const soldAndGot = sold && s.verbs.some((v) => ACQUIRE.has(v.split(" ")[0]!));
  // An addition never replaces anything, so it needs no topic in common. One more of a counted
  // thing ("another kitten, so 3 cats now" beside "has 2 cats") updates the count instead.
  // "adopted a third cat" beside "has two cats" recounts too.
  const ordinal = /\b(?:second|third|fourth|fifth)\b/i.test(additive ?? "");
  const recounted = m.amounts !== "" && (ordinal || (s.amounts !== "" && m.amounts !== s.amounts));
  // A change: what is left behind ("from the piano", "sold the Honda") is what the memory holds;
  // or, with "now" or "these days", the memory says the same kind of thing (the same verb).
  // "replaced the Fitbit with a Garmin", "swapped coffee for tea": the verb's object is left.
  // "rather than", "instead of" in a past one-off ("had tea instead of coffee at the party") leaves
  // nothing for good.
  const insteadOf = INSTEAD_OF.test(s.text) && !s.past;
  const left = insteadOf
    ? governed(s.text, INSTEAD_OF, about, FROM_END)
    : /\bfrom\b/i.test(s.text)
      ? governed(s.text, /\bfrom\b/i, about, FROM_END)
      : soldAndGot
        ? governed(s.text, verbPattern("sell"), about)
        : changeVerb &&
            new RegExp(`${verbPattern(changeVerb).source}[^,;.!?]*\\b(?:with|for)\\b`, "i").test(s.text)
          ? governed(s.text, verbPattern(changeVerb), about, REPLACED_END)
          : new Set<string>();
  const leftShared = sharedTerms(left, memoryTerms);
  // A change of another one ("my other brother just moved to Montreal") leaves nothing the memory
  // holds: the marker makes it an addition. "my other sister switched from the piano" leaves the
  // piano.
  // Only a determiner that brings in another one does this; "also moved" may be the person's move.
  // In the subject ("my other brother moved"), not the object ("moved to another flat").
  const another =
    additive !== undefined &&
    NEW_ONE.test(additive) &&
    s.subject.includes(additive.toLowerCase().trim().split(/\s+/).at(-1)!);
  const changes = (changeVerb || soldAndGot) && (!another || leftShared.length > 0);
  if (additive && !recounted && !changes)
    return { rule: "addition", why: `the statement adds to what the memory holds ("${additive.trim()}")` };
  const topicalTerms = sharedTerms(new Set([...s.terms, ...s.names]), memoryTerms);
  const sameVerb = s.verbs.find((v) => {
    const head = stem(v.split(" ")[0]!);
    return !LIGHT_VERBS.has(head) && m.verbs.some((w) => stem(w.split(" ")[0]!) === head);
  });
  const marked = NOW_ADVERBS.exec(s.text)?.[0];
  if ((changeVerb || soldAndGot || insteadOf) && leftShared.length > 0)
    return {
      rule: "change",
      why: `the statement leaves what the memory holds for something else (${changeVerb ? `"${changeVerb}"` : soldAndGot ? "sold and got" : `"${INSTEAD_OF.exec(s.text)![0]}"`}: ${leftShared.join(", ")})`,
    };
  // A verb of changing alone is not enough here: "Dev moved out" is no change to "Tom moved over".
  // "is a receptionist" and "is now a dental nurse instead" share only "be", and a topic word.
  const sameLight = s.verbs.some((v) => m.verbs.some((w) => w.split(" ")[0] === v.split(" ")[0]));
  const sameSlot = sameVerb ?? (sameLight && topicalTerms.length > 0 ? s.verbs[0] : undefined);
  // Only a state that holds can be left, and only by what it was said of: "now" beside a past
  // event ("felt powerful giving the talk") or of someone else ("now they're happy") changes nothing.
  if (
    marked &&
    sameSlot &&
    !NOW_ADVERBS.test(m.text) &&
    !m.past &&
    !s.past &&
    m.subject !== "" &&
    m.subject === s.subject
  )
    return {
      rule: "change",
      why: `the statement says what holds now in the memory's place ("${marked}", the same verb "${sameSlot.split(" ")[0]}")`,
    };
  // "instead" says outright that one thing takes another's place: a topic in common is enough
  // ("yoga is on Thursdays now instead" beside "goes to yoga on Tuesdays").
  if (
    /\binstead\b/i.test(s.text) &&
    topicalTerms.length > 0 &&
    !m.past &&
    !s.past &&
    !NOW_ADVERBS.test(m.text)
  )
    return {
      rule: "change",
      why: `the statement says what holds instead of what the memory holds (${topicalTerms.join(", ")})`,
    };
  // A thing of the same kind in the old one's place ("switched to architecture" beside
  // "engineering", "on green tea these days" beside "coffee, 4 cups a day"): WordNet puts the two
  // under one parent sense. Said with a verb of changing or a marker of now, of a state that holds.
  // A verb of changing is told in the past ("switched"); "now" needs a state that holds.
  // A move is a change of home, read elsewhere: "moved into a house" says nothing of working from home.
  // Only what the verb changes to ("switched to architecture"), not its object ("switched the
  // kettle on").
  const swapping =
    changeVerb !== undefined &&
    !changeVerb.startsWith("move") &&
    new RegExp(`${verbPattern(changeVerb).source}\\s+(?:over\\s+)?(?:to|for|into)\\b`, "i").test(s.text);
  const kindOf =
    own && (swapping || (marked && !s.past)) && !m.past && !NOW_ADVERBS.test(m.text) ? sameKind(s, m) : null;
  if (kindOf)
    return {
      rule: "change",
      why: `the statement puts a thing of the same kind in the memory's place ("${kindOf[1]}" for "${kindOf[0]}")`,
    };
  // Beginning a thing of the same kind with no word of change ("started gymnastics" beside "does
  // swimming 3 times a week") adds it: one takes up a second sport, not a second job of that sort.
  // Not a role ("started a job as a delivery driver"): one holds one job of a kind at a time.
  const taken =
    own && s.begins && !marked && !changeVerb && !s.negated && !m.role && !s.role ? sameKind(s, m) : null;
  if (taken)
    return {
      rule: "addition",
      why: `the statement begins a thing of the same kind beside the memory's ("${taken[1]}" beside "${taken[0]}")`,
    };
  // A new role for the person ("is a dept head now", "first day as a loan officer") leaves the role
  // the memory gives them: a role that holds, not a past one.
  if (
    m.role &&
    s.role &&
    m.role !== s.role &&
    (marked || s.begins) &&
    !m.past &&
    !s.negated &&
    !NOW_ADVERBS.test(m.text)
  )
    return {
      rule: "change",
      why: `the statement gives the person a new role in place of the memory's ("${m.role}" to "${s.role}")`,
    };
  // A new name set beside a noun the memory also has ("my friend Tom" beside "my friend Ana", "a
  // cat called Luna" beside "a cat called Miso"), with nothing ended or changed.
  const newNames = [...s.names].filter((n) => !m.names.has(n) && !TIME_WORDS.has(n));
  const oldNames = [...m.names].filter((n) => !s.names.has(n) && !TIME_WORDS.has(n));
  const wideNouns = expandSynonyms(m.nouns);
  const kinds = [...s.nouns].filter(
    (n) => (m.nouns.has(n) || wideNouns.has(n)) && !TIME_WORDS.has(n) && namedBy(s.text, n, newNames),
  );
  if (
    newNames.length > 0 &&
    oldNames.length > 0 &&
    kinds.length > 0 &&
    !s.negated &&
    !s.ends &&
    !verbOf(s, "change") &&
    !stopVerb
  )
    return {
      rule: "addition",
      why: `a new name beside the memory's, under the same noun (${kinds.join(", ")})`,
    };
  return null;
}
