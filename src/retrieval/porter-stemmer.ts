/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), as Lucene's
 * PorterStemFilter runs it: the reference for English stemming in full-text search. Unlike a
 * hand-made suffix list it is measured by the consonant-vowel form of the stem ("m"), so
 * "movie"/"movies", "news"/"new" and "universe"/"university" end where they should.
 */

const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];

const STEP3: [string, string][] = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

/** Whether the letter at `i` is a consonant: y is one after a vowel or at the start. */
function consonant(w: string, i: number): boolean {
  const c = w[i];
  if (c === "a" || c === "e" || c === "i" || c === "o" || c === "u") return false;
  if (c === "y") return i === 0 || !consonant(w, i - 1);
  return true;
}

/** m, the number of vowel-consonant sequences in `stem` ([C](VC)^m[V]). */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && consonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !consonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && consonant(stem, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!consonant(stem, i)) return true;
  return false;
}

function doubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && consonant(w, n - 1);
}

/** consonant-vowel-consonant at the end, the last not w, x or y ("hop", not "snow"). */
function cvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || !consonant(w, n - 1) || consonant(w, n - 2) || !consonant(w, n - 3)) return false;
  const c = w[n - 1];
  return c !== "w" && c !== "x" && c !== "y";
}

/** Replaces the first matching suffix when the remaining stem's measure exceeds `minM`. */
function replaceSuffix(w: string, rules: [string, string][], minM: number): string {
  for (const [suffix, replacement] of rules)
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      return measure(stem) > minM ? stem + replacement : w;
    }
  return w;
}

function step1ab(word: string): string {
  let w = word;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.endsWith("eed")) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  const suffix = w.endsWith("ed") ? "ed" : w.endsWith("ing") ? "ing" : "";
  if (!suffix || !hasVowel(w.slice(0, -suffix.length))) return w;
  w = w.slice(0, -suffix.length);
  if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return `${w}e`;
  if (doubleConsonant(w) && !/[lsz]$/.test(w)) return w.slice(0, -1);
  if (measure(w) === 1 && cvc(w)) return `${w}e`;
  return w;
}

function step4(w: string): string {
  for (const suffix of STEP4)
    if (w.endsWith(suffix)) {
      const stem = w.slice(0, -suffix.length);
      if (measure(stem) <= 1) return w;
      if (suffix === "ion" && !/[st]$/.test(stem)) return w;
      return stem;
    }
  return w;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lower-case word; words of one or two letters are left alone. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1ab(word);
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}
