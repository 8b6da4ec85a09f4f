/**
 * The privacy reader's word classes, from WordNet 3.1 (data/lexicon/wordnet.json, key `privacy`,
 * built by lab/train/build-lexicon.ts, privacyClasses): each sensitive kind is the lemmas under a
 * few seed senses (hyponym closures), and the request reader's verbs of telling (every verb with a
 * sense in verb.communication), verbs of coming to know and secrecy words (the senses of secret,
 * confidential, private, quiet and the adjectives similar to them). Loaded once, lazily.
 */
import { readFileSync } from "node:fs";

interface PrivacyFile {
  privacy?: { kinds: Record<string, string[]>; secrecy: string[]; communication: string[] };
}

export interface PrivacyLexicon {
  /** Word or two-word phrase -> its classes (health, money, …, topic, street, residence, knowing). */
  classes: Map<string, string[]>;
  secrecy: Set<string>;
  communication: Set<string>;
  /** First words of the two-word phrases in `classes`. */
  firstWords: Set<string>;
}

const FILE = new URL("../../../data/lexicon/wordnet.json", import.meta.url);
let loaded: PrivacyLexicon | undefined;

export function privacyLexicon(): PrivacyLexicon {
  if (loaded) return loaded;
  const file = JSON.parse(readFileSync(FILE, "utf8")) as PrivacyFile;
  const classes = new Map<string, string[]>();
  for (const [kind, words] of Object.entries(file.privacy?.kinds ?? {}))
    for (const w of words) {
      const list = classes.get(w) ?? [];
      list.push(kind);
      classes.set(w, list);
    }
  loaded = {
    classes,
    secrecy: new Set(file.privacy?.secrecy ?? []),
    communication: new Set(file.privacy?.communication ?? []),
    firstWords: new Set(
      [...classes.keys()].filter((k) => k.includes(" ")).map((k) => k.slice(0, k.indexOf(" "))),
    ),
  };
  return loaded;
}

const IRREGULAR: Record<string, string> = {
  told: "tell",
  said: "say",
  spoke: "speak",
  spoken: "speak",
  knew: "know",
  known: "know",
  heard: "hear",
  found: "find",
  let: "let",
  kept: "keep",
};

/** A lowercase word and the lemmas its inflections may come from, most likely first. */
export function lemmas(word: string): string[] {
  const out = [word];
  const irregular = IRREGULAR[word];
  if (irregular) out.push(irregular);
  const strip = (suffix: string, ...add: string[]) => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix))
      for (const a of add) out.push(word.slice(0, -suffix.length) + a);
  };
  strip("ies", "y");
  strip("es", "");
  strip("s", "");
  strip("ied", "y");
  strip("ed", "", "e");
  strip("d", "");
  strip("ing", "", "e");
  strip("in", "", "e");
  strip("ally", "al");
  strip("ly", "");
  if (/(.)\1(?:ed|ing)$/.test(word)) out.push(word.replace(/(.)\1(?:ed|ing)$/, "$1"));
  return out;
}

/** What the reader needs of one word, looked up once (chat reuses its words). */
export interface WordInfo {
  classes: string[] | undefined;
  telling: boolean;
  secrecy: boolean;
}

const NONE: string[] = [];
const cache = new Map<string, WordInfo>();

/** A word's classes (by any of its lemmas) and whether it is a verb of telling or a secrecy word. */
export function wordInfo(word: string): WordInfo {
  const hit = cache.get(word);
  if (hit) return hit;
  const lex = privacyLexicon();
  const all = lemmas(word);
  let classes: string[] | undefined;
  for (const l of all) {
    classes = lex.classes.get(l);
    if (classes) break;
  }
  const info = {
    classes: classes ?? (undefined as string[] | undefined),
    telling: all.some((l) => lex.communication.has(l)),
    secrecy: all.some((l) => lex.secrecy.has(l)),
  };
  if (cache.size > 50000) cache.clear();
  cache.set(word, info);
  return info;
}

/** The classes of a word (by any of its lemmas), or undefined. */
export function classesOf(word: string): string[] | undefined {
  return wordInfo(word).classes;
}

export const noClasses = NONE;
