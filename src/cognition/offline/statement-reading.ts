/**
 * How the update rules (update-rules.ts) read one statement about a person: its terms, names,
 * nouns and head nouns, verbs (phrasal ones whole), amounts, tense, subject and role; the phrase a
 * verb governs; and the verbs of stopping it uses, denied or not. Readings are cached per text.
 */
import { escapeRegExp, stem, terms } from "../../core/text.js";
import { MONTHS, WEEKDAYS } from "../../core/time.js";
import { amounts, parseFrame } from "./frame.js";
import { inVerbClass, inWordField, lemmaCount, slotsOf, type VerbClassName } from "./lexicon.js";
import { lexiconTag, nlp } from "./nlp.js";
import { formsOf } from "./perspective.js";

/** Acquiring, as the second half of "sold X and bought Y", "gave away X and got Y". */
export const ACQUIRE = new Set(["buy", "get", "adopt", "purchase", "lease", "rent", "order", "pick"]);
export interface Reading {
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
  /** The statement says what someone does for a living: see `saysWork`. */
  work: boolean;
}

const READ_MAX = 4096;
const readings = new Map<string, Reading>();

export function read(text: string, about: string): Reading {
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
    work: saysWork(text),
  };
  if (readings.size >= READ_MAX) readings.clear();
  readings.set(key, reading);
  return reading;
}

/** "works as", "works at", "working for", "job at", "employed by". */
const WORKING =
  /\b(?:work(?:s|ed|ing)?\s+(?:as|at|for|in)|job\s+(?:as|at|with)|(?:employed|hired)\s+(?:by|at|as))\b/i;
/**
 * "driving for Bolt", "fits kitchens for Halden Interiors": a verb's work for a named body; not
 * what one does for a cause, a team, a day or a person ("volunteering for Oxfam", "playing for
 * Leeds", "cooking for Christmas", "waiting for Jo"): those verbs are read as no living.
 */
const FOR_A_NAME = /\b([a-z]+(?:s|ing))\s+(?:[\w'-]+\s+){0,3}?for\s+(?:the\s+)?\p{Lu}[\p{L}'&-]+/gu;
/** Words ending in "s" that are no verb of work ("is training for", "has a bid for"). */
const AUXILIARY_S = /^(?:is|was|has|does|this|thus|plus|as|us|its|his|hers|yes|less|miss|always|sometimes)$/;
const NOT_A_LIVING =
  /^(?:volunteer|play|cook|shop|wait|look|vote|pray|cheer|train|sign|apply|root|fundrais|rais|run|search|ask|call|care|buy|mak|bak)/;
/** "runs a dumpling stand", "own a bakery": running a business of one's own. */
const RUNNING =
  /\b(?:run|runs|running|own|owns|owning|manage|manages|managing)\s+(?:a|an|the|my|our|his|her|their)\s+(?:[a-z-]+\s+){0,2}(?:stand|stall|shop|business|company|firm|cafe|café|restaurant|bakery|bar|pub|salon|studio|practice|farm|truck|van|agency|store|kiosk)\b/i;
/** "is a nurse", "is the manager of", "became a driving examiner", "as a ward clerk", "the post of head chef": a role anyone is given at work. */
const ANY_ROLE =
  /\b(?:(?:is|was|'s|became|becomes|become|as)\s+(?:now\s+)?(?:a|an|the)|(?:post|position|role|job|title)\s+(?:of|as)(?:\s+(?:a|an|the))?)\s+((?:[a-z-]+\s+){0,2}[a-z-]+)/gi;

/** A role one holds at work: in the lexicon's "work" slot ("postman", "nurse") or an agent noun by its ending. */
export function workRole(word: string): boolean {
  return slotsOf(stem(word)).includes("work") || agentNoun(word);
}

/**
 * Whether a statement says what someone does for a living: working as, at or for; a verb's work
 * for a named body; running a business; or a role in the lexicon's "work" slot (WordNet's workers,
 * professionals, officials and leaders: "a postman") or named by its ending ("an instructer").
 */
export function saysWork(text: string): boolean {
  // Unpaid by its own words: volunteering, "just for fun", "as a hobby".
  if (/\bvolunteer|\bfor fun\b|\bas a hobby\b|\bfor a laugh\b/i.test(text)) return false;
  const forName = [...text.matchAll(FOR_A_NAME)].some(
    (hit) => !NOT_A_LIVING.test(hit[1]!) && !AUXILIARY_S.test(hit[1]!),
  );
  if (WORKING.test(text) || forName || RUNNING.test(text)) return true;
  for (const hit of text.matchAll(ANY_ROLE)) {
    const words: string[] = [];
    for (const w of hit[1]!.toLowerCase().split(/\s+/)) {
      if (ROLE_END.test(w)) break;
      words.push(w);
    }
    if (words.some(workRole)) return true;
  }
  return false;
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
export function agentNoun(word: string): boolean {
  const base = /^([a-z]{3,}?)(?:e?r|or)$/.exec(word)?.[1];
  if (!base) return false;
  const undoubled = base.replace(/([b-df-hj-np-tv-z])\1$/, "$1");
  return [base, `${base}e`, undoubled].some((b) => lexiconTag(b) === "Infinitive");
}

/** Pronouns stand for someone the statement does not name. */
const PRONOUN_SUBJECT = /^(?:i|you|he|she|it|we|they|this|that|these|those|there)$/;

/** The words before a statement's first verb as its subject: see `Reading.subject`. */
export function subjectOf(before: string): string {
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
export function verbOf(r: Reading, kind: VerbClassName): string | undefined {
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

/** Weekdays, months and seasons: a shared date is not a shared topic. */
export const TIME_WORDS = new Set(
  [
    ...WEEKDAYS,
    ...MONTHS,
    ...["weekend", "week", "spring", "summer", "autumn", "winter", "today", "yesterday", "tomorrow"],
    ...["year", "month", "day", "morning", "evening", "night", "time", "moment"],
  ].map(stem),
);

/** Where the phrase a verb governs ends: a clause boundary, or a preposition of time or cause. */
const PHRASE_END =
  /[,;:.!?]|\b(?:and|but|because|since|after|before|when|while|so|as|for good|for now|last|this|next|ago)\b/i;
/**
 * Where what a replacing verb leaves ends: "replaced the oil boiler with a heat pump"; a part of a
 * thing is what is replaced ("the battery in the Lenovo").
 */
export const REPLACED_END =
  /[,;:.!?]|\b(?:with|for|by|in|on|of|at|and|but|because|since|after|when|while|so)\b/i;
/** Where what a change leaves ends: "from Leeds to Bristol" leaves Leeds. */
export const FROM_END = /[,;:.!?]|\b(?:to|into|for|and|but|because|since|after|when|while|so)\b/i;

/**
 * The phrase a stopping or leaving word governs ("quit running for good" -> "running", "no
 * longer works night shifts" -> "works night shifts", "sold the Honda and bought…" -> "the
 * Honda"), as terms: its nouns when it has some (the thing ended), else all its content terms.
 */
export function governed(text: string, at: RegExp, about: string, ends = PHRASE_END): Set<string> {
  const hit = at.exec(text);
  if (!hit) return new Set();
  const rest = text.slice(hit.index + hit[0].length);
  const end = ends.exec(rest);
  let phrase = (end ? rest.slice(0, end.index) : rest).trim();
  // "cancelled the massages to save money": a purpose told after "to" is why, not what ended.
  const purpose = nlp(phrase).match("to #Infinitive").first().text();
  if (purpose) phrase = phrase.slice(0, phrase.indexOf(purpose)).trim() || phrase;
  // "Cold showers: binned that.": a pronoun stands for the thing named before the colon.
  if (/^(?:that|it|this|them|those)$/i.test(phrase)) phrase = "";
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
 * Whether the statement itself tells of a stop ("quit, my wife's idea", "no longer on cetirizine",
 * "sold the Fiesta"), whatever memory it meets: such a statement is remembered as a memory of its
 * own, so nothing that ends a state may drop it (a stop is kept, never retired with the habit).
 */
/** Whether the statement's subject is the person (or left out), not someone of theirs ("Sam's son"). */
export function ownSubject(r: Reading): boolean {
  if (!/\w's?\s+\w|s'\s+\w|\b(?:his|her|their|my|our)\s+\w/.test(r.subject)) return true;
  // "Sam's new car", "my phone": a thing of the person's is theirs to change; "Sam's son", "her
  // neighbour", "Sam's son Rehaan" (a name WordNet does not know) are someone else.
  const head = r.subject.split(" ").at(-1)!.replace(/'s?$/, "");
  return (
    lemmaCount(head) > 0 && !inWordField(stem(head), "noun.person") && !inWordField(stem(head), "noun.animal")
  );
}

/** Every verb of stopping the statement uses, in order ("won't stop", then "quit"). */
export function stopVerbsOf(r: Reading): string[] {
  return r.verbs.flatMap((v) => {
    const one = verbOf({ ...r, verbs: [v] }, "stop");
    return one ? [one] : [];
  });
}

/** The first verb of stopping the statement does not deny. */
export function liveStop(r: Reading): string | undefined {
  return stopVerbsOf(r).find((v) => !denial(v).test(r.text));
}

/** "won't stop", "didn't quit", "never gave up": a stopping verb denied. */
export function denial(verb: string): RegExp {
  return new RegExp(`(?:\\bnot|n't|\\bnever)\\s+(?:\\w+\\s+)?${verbPattern(verb).source}`, "i");
}

/**
 * What the memory holds: the phrase its first verb governs, up to a clause's end or a preposition
 * of purpose ("drives a Ford Fiesta", "owns a canal boat called De Reiger"), as terms and names.
 */
export function heldBy(m: Reading, about: string): Set<string> {
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
export function parting(s: Reading): string | undefined {
  if (s.verbs.some((v) => ACQUIRE.has(v.split(" ")[0]!))) return undefined;
  if (s.verbs.some((v) => v.startsWith("give away")) || GAVE_AWAY.test(s.text)) return "give away";
  return s.verbs.some((v) => v === "sell" || v.startsWith("sell ")) ? "sell" : undefined;
}

/** "gave my tarot deck away": the particle after the thing given. */
const GAVE_AWAY = /\b(?:give|gives|giving|gave|given)\s+((?:[\w'-]+\s+){1,4}?)away\b/i;

/** What was parted with: "sold the Fiesta" -> the Fiesta, "gave my deck away" -> my deck. */
export function partedWith(s: Reading, verb: string, about: string): Set<string> {
  const apart = verb === "give away" ? GAVE_AWAY.exec(s.text) : null;
  return apart ? governed(`${apart[1]!.trim()}.`, /^/, about) : governed(s.text, verbPattern(verb), about);
}

/** The words of a stopping verb as written ("gave up" for "give up", "quit"), for `governed`. */
export function verbPattern(lemma: string): RegExp {
  // The tagger's lemma is chat's words ("(re)build", "c++"): only letters make a pattern.
  if (!/^[a-z]+(?: [a-z]+)*$/i.test(lemma)) return NEVER;
  const [head, ...rest] = lemma.split(" ");
  const forms = SUPPLETIVE[head!] ?? `${head!.replace(/e$/, "")}\\w*`;
  // An irregular past and participle ("bought", "drove", "stolen") as the tagger conjugates the verb.
  const conjugated = formsOf(head!);
  const irregular = [
    IRREGULAR_PAST[head!],
    ...[conjugated?.PastTense, conjugated?.Participle].map((f) =>
      f && /^[a-z]+$/i.test(f) && !f.startsWith(head!.replace(/e$/, "")) ? f : undefined,
    ),
  ]
    .filter(Boolean)
    .map((f) => `|${f}`)
    .join("");
  return new RegExp(`\\b(?:${forms}${irregular})\\b${rest.map((w) => `\\s+${w}`).join("")}`, "i");
}

/** Verbs whose forms share no stem to match ("is" for "be", "has" for "have"). */
const SUPPLETIVE: Record<string, string> = {
  leave: "leav\\w*|left",
  be: "be|being|been|is|am|are|was|were|(?<=\\w)'(?:s|re|m)",
  have: "ha(?:ve|s|d|ving)|(?<=\\w)'(?:ve|d)",
};

/** A pattern that matches nothing. */
const NEVER = /(?!)/;

const IRREGULAR_PAST: Record<string, string> = {
  give: "gave|given",
  sell: "sold",
  leave: "left",
  quit: "quit",
};

/**
 * Whether a verb of changing is used as one: in a past form ("switched", "moved") or with its
 * particle ("switch to", "move out"), or as an infinitive with its object ("to replace the Lenovo").
 * The tagger reads "night shifts r mon-thu" as a verb.
 */
export function asVerb(text: string, lemma: string): boolean {
  const head = lemma.split(" ")[0]!.replace(/e$/, "");
  // "swapped", "swopped": a short verb doubles its last letter before the ending.
  const doubled = `${head.at(-1)}?`;
  return new RegExp(
    `\\b${head}${doubled}(?:e?d|t)\\b|\\b${head}e?s?\\s+(?:from|to|into|over|out|in|up)\\b|\\bto\\s+${head}e?\\s+(?:the|a|an|my|his|her|their|our|\\p{Lu})`,
    "iu",
  ).test(text);
}

/**
 * Whether two subjects are one: the same words, or the same last word ("gulshan's son rehaan" and
 * "rehaan"), which heads the phrase.
 */
export function sameSubject(a: string, b: string): boolean {
  if (a === "" || b === "") return false;
  if (a === b) return true;
  // "Tom's sister" is not "Sam's sister": two owners named are two people's.
  const ownerA = /([\w-]+)'s?\s/.exec(a)?.[1];
  const ownerB = /([\w-]+)'s?\s/.exec(b)?.[1];
  if (ownerA && ownerB && ownerA !== ownerB) return false;
  return a.split(" ").at(-1) === b.split(" ").at(-1);
}
