/**
 * What `forget` looks for after erasing rows, shared by every store: the erased texts worth
 * finding elsewhere, and their replacement in any stored value. The thresholds keep everyone's
 * small talk out of it; docs/storage.md lists them.
 */
import { displayName } from "../core/ids.js";
import { hasWordCharacter, namePattern, STOPWORDS, tokenize } from "../core/text.js";

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
  const texts = new ErasedTexts();
  for (const t of memoryTexts) texts.addMemory(t);
  for (const t of turnTexts) texts.addTurn(t);
  return texts.list();
}

const isPiece = (t: string) => t.length >= MIN_FRAGMENT && t.split(/\s+/).length >= MIN_FRAGMENT_WORDS;

/**
 * `erasedTexts` gathered one text at a time, so that a pass over a whole scope's erased rows can
 * pause between them (forget.ts on Postgres); `list()` gives what `erasedTexts` would.
 */
export class ErasedTexts {
  private readonly memories: string[] = [];
  private readonly turns: string[] = [];
  private readonly sentences: string[] = [];

  addMemory(text: string): void {
    if (text.length >= MIN_TEXT) this.memories.push(text);
  }

  addTurn(text: string): void {
    if (isPiece(text)) this.turns.push(text);
    for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
      const piece = sentence.trim();
      if (isPiece(piece)) this.sentences.push(piece);
    }
  }

  /** Whole texts before their sentences, each once, longest first (the sort keeps that order among equals). */
  list(): string[] {
    return [...new Set([...this.memories, ...this.turns, ...this.sentences])].sort(
      (a, b) => b.length - a.length,
    );
  }
}

/**
 * Replaces every erased text in a value (strings inside objects and arrays too). `texts` is either
 * the list (longest first, as `erasedTexts` gives it) or a `Scrubber` made from it once, for a
 * pass over a whole scope.
 */
export function scrub(value: unknown, texts: string[] | Scrubber): { value: unknown; changed: boolean } {
  const scrubber = Array.isArray(texts) ? new Scrubber(texts) : texts;
  return scrubber.value(value);
}

/** Characters of a text's opening that index it: no shorter than any text looked for. */
const GRAM = Math.min(MIN_TEXT, MIN_FRAGMENT);

/**
 * The erased texts, indexed by their opening characters. A forget looks for every erased text in
 * every remaining row, and asking each row for each text costs rows × texts (hours at 100K turns);
 * a text can only occur where its opening does, so a row is asked only for the texts whose
 * opening it contains, found in one pass over the row. Texts are still replaced in the list's
 * order, longest first, as before.
 */
export class Scrubber {
  private readonly byGram = new Map<string, number[]>();
  /**
   * Texts shorter than the gram, or that contain the replacement's brackets (a replacement can
   * make them appear): always asked.
   */
  private readonly always: number[] = [];

  constructor(private readonly texts: readonly string[]) {
    for (const [i, t] of texts.entries()) {
      if (t.length < GRAM || t.includes("[") || t.includes("]")) {
        this.always.push(i);
        continue;
      }
      const gram = t.slice(0, GRAM);
      const list = this.byGram.get(gram);
      if (list) list.push(i);
      else this.byGram.set(gram, [i]);
    }
  }

  /** Replaces every erased text in a value (strings inside objects and arrays too). */
  value(value: unknown): { value: unknown; changed: boolean } {
    if (typeof value === "string") return this.text(value);
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((v) => {
        const r = this.value(v);
        changed ||= r.changed;
        return r.value;
      });
      return { value: out, changed };
    }
    if (value && typeof value === "object") {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const r = this.value(v);
        changed ||= r.changed;
        out[k] = r.value;
      }
      return { value: out, changed };
    }
    return { value, changed: false };
  }

  private text(value: string): { value: string; changed: boolean } {
    const found = new Set(this.always);
    if (this.byGram.size > 0)
      for (let at = 0; at + GRAM <= value.length; at++) {
        const list = this.byGram.get(value.slice(at, at + GRAM));
        if (list) for (const i of list) found.add(i);
      }
    if (found.size === 0) return { value, changed: false };
    let out = value;
    for (const i of [...found].sort((a, b) => a - b)) {
      const t = this.texts[i]!;
      if (out.includes(t)) out = out.split(t).join(REDACTED);
    }
    return { value: out, changed: out !== value };
  }
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
  // "10,000" and "4.321" are one number, not two.
  return tokenize(text.replace(/(\d)[,.](?=\d)/g, "$1")).map((t) => (WHO.has(t) || isName(t) ? SOMEONE : t));
}

const carriesMeaning = (t: string) => t !== SOMEONE && (/\d/.test(t) || (t.length > 1 && !STOPWORDS.has(t)));

/** Where a text stands relative to what was erased: in a session the erased words were said in, or elsewhere. */
export type QuoteReach = "near" | "far";

/**
 * Finds the sentences of the agent's own words that tell erased facts back ("I noted that your
 * PIN is 4321" after "My PIN is 4321"). The evidence is built from the erased person's own words
 * and the erased memories, never from the agent's replies (their stock phrases are everyone's).
 * - Near (a session the erased words were said in): a sentence is a quote when it shares a run of
 *   four words with the evidence, two of them carrying meaning, after every pronoun and the
 *   person's own name are read as "someone"; when it repeats a number of theirs of three digits
 *   or more (not a year); or, when a person is forgotten, when it names them.
 * - Far (the agent's words in other sessions, to other people): only what points at the person
 *   alone — a number of four digits or more that is neither a year nor round (a PIN, a phone
 *   number), or their name inside a sentence. A name opening a sentence is left: names that are
 *   also words ("Will you…", "Mark your…") made that position unreliable.
 * Shorter runs are everyone's ("to the park"); the verbatim rule (`erasedTexts`) catches long copies.
 */
export function quoteFinder(
  evidence: string[],
  person?: string,
): (text: string, reach: QuoteReach) => { value: string; changed: boolean; removed: string[] } {
  const gathered = new QuoteEvidence(person);
  for (const text of evidence) gathered.add(text);
  return gathered.finder();
}

/**
 * `quoteFinder`'s evidence gathered one text at a time, so that a pass over a whole scope's erased
 * rows can pause between them (forget.ts on Postgres); `finder()` is what `quoteFinder` gives.
 */
export class QuoteEvidence {
  private readonly names: Set<string>;
  private readonly runs = new Set<string>();
  private readonly numbers = new Set<string>();

  constructor(private readonly person?: string) {
    this.names = new Set(person ? tokenize(`${person} ${displayName(person)}`) : []);
  }

  add(text: string): void {
    const words = quoteWords(text, this.names);
    for (const run of runsOf(words)) this.runs.add(run);
    for (const w of words) if (/^\d{3,}$/.test(w) && !isYear(w)) this.numbers.add(w);
  }

  finder(): (text: string, reach: QuoteReach) => { value: string; changed: boolean; removed: string[] } {
    const { person, names, runs, numbers } = this;
    const display = person ? displayName(person) : "";
    const named =
      person && hasWordCharacter(display) && !isCalendarWord(display) ? namePattern(display, "") : null;
    const namedInside = named ? new RegExp(`\\S\\s+${named.source}`, "u") : null;
    return (text, reach) => {
      const removed: string[] = [];
      if (runs.size === 0 && numbers.size === 0 && !named) return { value: text, changed: false, removed };
      // Far from the erased words most texts hold neither a long number nor the name: skip them cheaply.
      if (reach === "far" && !/\d{4}|\d[.,]\d{3}/.test(text) && !(display && text.includes(display)))
        return { value: text, changed: false, removed };
      const value = text
        .split(/(?<=[.!?])(\s+)|(\n+)/)
        .filter((piece) => piece !== undefined)
        .map((piece) => {
          if (!/\S/.test(piece) || piece === REDACTED) return piece;
          const words = quoteWords(piece, names);
          const quoted =
            reach === "near"
              ? words.some((w) => numbers.has(w)) ||
                runsOf(words).some((run) => runs.has(run)) ||
                Boolean(named?.test(piece))
              : words.some((w) => numbers.has(w) && isIdentifyingNumber(w)) ||
                Boolean(namedInside?.test(piece));
          if (!quoted) return piece;
          removed.push(piece.trim());
          return REDACTED;
        })
        .join("");
      return { value, changed: removed.length > 0, removed };
    };
  }
}

const isYear = (word: string) => /^(?:1[5-9]|20)\d\d$/.test(word);

/**
 * A number that points at one person's data wherever it is said (a PIN, a phone number): four
 * digits or more, not a year, not round (500, 10000 are everyone's amounts).
 */
function isIdentifyingNumber(word: string): boolean {
  return /^\d{4,}$/.test(word) && !isYear(word) && !/00$/.test(word);
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
  text: string;
  /** True for text memlane wrote (a reply), whoever it is attributed to. */
  generated: boolean;
}

/**
 * The replies in one session (ordered) that answer `person`: turns by an agent (the scope's own,
 * or another memlane agent of a conversation), or generated, whose latest earlier turn by
 * someone else is the person's. A reply that answers someone tells their facts back to them, so
 * it belongs to their footprint and goes when they are forgotten. In a session with several
 * people, a reply that names one of the others is theirs, not the person's (the quote rule still
 * reads it).
 */
export function repliesTo(
  turns: SpokenTurn[],
  agents: string[],
  person: string,
  others: string[] = [],
): string[] {
  const otherNames = others
    .filter((o) => o !== person && !agents.includes(o))
    .map((o) => displayName(o))
    .filter((n) => hasWordCharacter(n) && !isCalendarWord(n))
    .map((n) => namePattern(n, ""));
  let addressee: string | null = null;
  const out: string[] = [];
  for (const t of turns) {
    if (!agents.includes(t.speaker) && !t.generated) addressee = t.speaker;
    else if (addressee === person && !otherNames.some((p) => p.test(t.text))) out.push(t.id);
  }
  return out;
}
