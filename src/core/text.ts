/** Word-level text helpers shared by the offline cognition and lexical retrieval. */

export const STOPWORDS = new Set(
  (
    "a an the and or but if then so of to in on at by for with from about as into over after before " +
    "is am are was were be been being do does did doing have has had having i me my mine myself we us our " +
    "ours you your yours he him his she her hers it its they them their theirs this that these those there here " +
    "what which who whom whose when where why how all any both each few more most other some such no nor not " +
    "only own same than too very can will just don should now would could also really yeah yes oh ok okay well " +
    "get got im ive id ill its thats dont didnt cant wont isnt arent wasnt like lot lots much many thing things " +
    "up down out off away gonna going wanna gotta " +
    "s t re ve ll d m"
  ).split(" "),
);

/** Lower-case word tokens, apostrophes folded ("I'm" -> "im"). */
export function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’']/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Tokens that carry meaning: no stopwords, no single letters. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => t.length > 1 && !STOPWORDS.has(t));
}

/**
 * A light English suffix stemmer (plural, -ing, -ed, -ly, -ies), enough to match
 * "adopted"/"adopting"/"adopt" without a dictionary.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("sses")) return w.slice(0, -2);
  if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) w = w.slice(0, -1);
  for (const suffix of ["ingly", "edly", "ing", "ed", "ly"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
      break;
    }
  }
  // A final silent e goes too, so "dance", "danced" and "dancing" meet at "danc".
  if (w.length > 4 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

/** Content tokens, stemmed. */
export function terms(text: string): string[] {
  return contentTokens(text).map(stem);
}

/** Jaccard overlap of two texts' stemmed content terms (0..1). */
export function termOverlap(a: string, b: string): number {
  const x = new Set(terms(a));
  const y = new Set(terms(b));
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const t of x) if (y.has(t)) shared++;
  return shared / (x.size + y.size - shared);
}

/** A string made safe to embed in a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A name as a whole word, with or without a possessive "'s" ("Sam", "Sam's", not "Samuel").
 * Word edges are letters and digits of any script ("José" is not found inside "Josée"). A name
 * with no letter or digit ("", "-", "'") names no one, so its pattern matches nothing: a pattern
 * built from it would otherwise match every text, or every apostrophe.
 */
export function namePattern(name: string, flags = "i"): RegExp {
  const unicode = flags.includes("u") ? flags : `${flags}u`;
  if (!hasWordCharacter(name)) return new RegExp("(?!)", unicode);
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}_])${escapeRegExp(name)}('s)?(?![\\p{L}\\p{M}\\p{N}_])`, unicode);
}

/**
 * The first `chars` characters of `text`, cut at the last white space when one falls in the
 * second half (a word is not split), else cut hard. Text no longer than `chars` comes back whole.
 */
export function prefixAtWord(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const space = cut.search(/\s\S*$/);
  return space > chars / 2 ? cut.slice(0, space) : cut;
}

/** True when a text holds at least one letter or digit, in any script. */
export function hasWordCharacter(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** FNV-1a, 32 bit: a fast, stable hash of a string (not for security). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
