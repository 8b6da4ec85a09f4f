/**
 * What `forget` looks for after erasing rows, shared by every store: the erased texts worth
 * finding elsewhere, and their replacement in any stored value. The thresholds keep everyone's
 * small talk out of it; docs/storage.md lists them.
 */
import { displayName } from "../core/ids.js";
import { namePattern, STOPWORDS, tokenize } from "../core/text.js";

export const REDACTED = "[forgotten]";

/** Shortest erased memory text looked for elsewhere. */
const MIN_TEXT = 16;
/**
 * Shortest piece of someone's erased words (a turn, or a sentence of it) looked for elsewhere, in
 * characters and words: short stock phrases ("how are you doing today?") are everyone's.
 */
const MIN_FRAGMENT = 40;
const MIN_FRAGMENT_WORDS = 7;

/** Words that are names only sometimes: a person called "May" must not take every date with them. */
const CALENDAR =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** True when a name is also a month or a weekday, so it is never matched in memory texts. */
export function isCalendarWord(name: string): boolean {
  return CALENDAR.test(name);
}

/**
 * The texts to redact elsewhere, from the erased memories' texts and the erased turns' words:
 * whole texts and sentences long enough to be recognised when quoted, longest first (a whole text
 * is replaced before its own sentences are looked for).
 */
export function erasedTexts(memoryTexts: string[], turnTexts: string[]): string[] {
  const memories = memoryTexts.filter((t) => t.length >= MIN_TEXT);
  const pieces = [
    ...turnTexts,
    ...turnTexts.flatMap((t) => t.split(/(?<=[.!?])\s+|\n+/).map((x) => x.trim())),
  ].filter((t) => t.length >= MIN_FRAGMENT && t.split(/\s+/).length >= MIN_FRAGMENT_WORDS);
  return [...new Set([...memories, ...pieces])].sort((a, b) => b.length - a.length);
}

/** Replaces every erased text in a value (strings inside objects and arrays too). */
export function scrub(value: unknown, texts: string[]): { value: unknown; changed: boolean } {
  if (typeof value === "string") {
    let out = value;
    for (const t of texts) if (out.includes(t)) out = out.split(t).join(REDACTED);
    return { value: out, changed: out !== value };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = scrub(v, texts);
      changed ||= r.changed;
      return r.value;
    });
    return { value: out, changed };
  }
  if (value && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = scrub(v, texts);
      changed ||= r.changed;
      out[k] = r.value;
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}

/** Words that only say who: a quote told back to its speaker changes them ("my PIN" -> "your PIN"). */
const WHO = new Set(
  (
    "i me my mine myself im ive id ill you your yours yourself youre youve youd youll he him his himself " +
    "hes she her hers herself shes they them their theirs theyre theyve we us our ours were weve"
  ).split(" "),
);
const SOMEONE = "\u0001";
/** Consecutive words a quote shares with the erased words, and how many of them carry meaning. */
const QUOTE_WORDS = 4;
const QUOTE_CONTENT = 2;

function quoteWords(text: string, names: Set<string>): string[] {
  // "Sam's" folds to "sams": a possessive of the name is the name.
  const isName = (t: string) => names.has(t) || (t.endsWith("s") && names.has(t.slice(0, -1)));
  return tokenize(text).map((t) => (WHO.has(t) || isName(t) ? SOMEONE : t));
}

const carriesMeaning = (t: string) => t !== SOMEONE && (/\d/.test(t) || (t.length > 1 && !STOPWORDS.has(t)));

/**
 * Finds the sentences of a text that repeat erased words in other words' clothing: a reply that
 * tells a fact back ("I noted that your PIN is 4321" after "My PIN is 4321"). A sentence is a
 * quote when it shares a run of four words with an erased text, two of them carrying meaning
 * (not stop words), after every pronoun and the person's own name are read as "someone"; or
 * when it repeats an identifying number of theirs (three digits or more, not a year); or, when a
 * person is forgotten, when it names them. Shorter runs are everyone's ("to the park"); the
 * verbatim rule (`erasedTexts`) catches long copies.
 */
export function quoteFinder(
  erased: string[],
  person?: string,
): (text: string) => { value: string; changed: boolean } {
  const names = new Set(person ? tokenize(`${person} ${displayName(person)}`) : []);
  const runs = new Set<string>();
  const numbers = new Set<string>();
  for (const text of erased) {
    const words = quoteWords(text, names);
    for (const run of runsOf(words)) runs.add(run);
    for (const w of words) if (isIdentifyingNumber(w)) numbers.add(w);
  }
  const named = person && !isCalendarWord(displayName(person)) ? namePattern(displayName(person), "") : null;
  return (text) => {
    if (runs.size === 0 && numbers.size === 0 && !named) return { value: text, changed: false };
    let changed = false;
    const value = text
      .split(/(?<=[.!?])(\s+)|(\n+)/)
      .filter((piece) => piece !== undefined)
      .map((piece) => {
        if (!/\S/.test(piece) || piece === REDACTED) return piece;
        const words = quoteWords(piece, names);
        const quoted = words.some((w) => numbers.has(w)) || runsOf(words).some((run) => runs.has(run));
        if (!quoted && !named?.test(piece)) return piece;
        changed = true;
        return REDACTED;
      })
      .join("");
    return { value, changed };
  };
}

/**
 * A number that points at one person's data (a PIN, a phone or house number): three digits or
 * more, and not a year, which everyone shares.
 */
function isIdentifyingNumber(word: string): boolean {
  return /^\d{3,}$/.test(word) && !/^(?:19|20)\d\d$/.test(word);
}

function runsOf(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + QUOTE_WORDS <= words.length; i++) {
    const run = words.slice(i, i + QUOTE_WORDS);
    if (run.filter(carriesMeaning).length >= QUOTE_CONTENT) out.push(run.join(" "));
  }
  return out;
}

/** A turn as the footprint rules read it. */
export interface SpokenTurn {
  id: string;
  speaker: string;
  /** True for text memlane wrote (a reply), whoever it is attributed to. */
  generated: boolean;
}

/**
 * The replies in one session (ordered) that answer `person`: turns by an agent (the scope's own,
 * or another memlane agent of a conversation), or generated, whose latest earlier turn by
 * someone else is the person's. A reply that answers someone tells their facts back to them, so
 * it belongs to their footprint and goes when they are forgotten.
 */
export function repliesTo(turns: SpokenTurn[], agents: string[], person: string): string[] {
  let addressee: string | null = null;
  const out: string[] = [];
  for (const t of turns) {
    if (!agents.includes(t.speaker) && !t.generated) addressee = t.speaker;
    else if (addressee === person) out.push(t.id);
  }
  return out;
}
