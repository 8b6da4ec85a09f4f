/**
 * compromise, the part-of-speech tagger the offline toolbox and the question reader parse with,
 * loaded on the first parse rather than at import: it is the largest module the product loads
 * (about 0.2 s), and importing `memlane`, or running a command that never parses, should not pay
 * for it. Its CommonJS build is loaded synchronously with `require`, so every caller keeps its
 * synchronous `nlp(text)`; it is the same release as the ES build, bundled into one file.
 */
import { createRequire } from "node:module";
import type compromise from "compromise";

type Nlp = typeof compromise;
let loaded: Nlp | undefined;

function compromiseOnce(): Nlp {
  loaded ??= createRequire(import.meta.url)("compromise") as Nlp;
  return loaded;
}

/** Parses a text with compromise (loaded on first use). */
export function nlp(text: string): ReturnType<Nlp> {
  return compromiseOnce()(text);
}

let lexicon: Record<string, string | string[]> | undefined;

/**
 * The tag compromise's own lexicon gives a lower-case word ("Determiner", "Singular",
 * "Expression"), or undefined for a word it does not list: its lexicon is the common words.
 */
export function lexiconTag(word: string): string | undefined {
  lexicon ??= (compromiseOnce().model() as { one: { lexicon: Record<string, string | string[]> } }).one
    .lexicon;
  const tag = lexicon[word];
  return Array.isArray(tag) ? tag[0] : tag;
}
