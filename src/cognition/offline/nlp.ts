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

/** Parses a text with compromise (loaded on first use). */
export function nlp(text: string): ReturnType<Nlp> {
  loaded ??= createRequire(import.meta.url)("compromise") as Nlp;
  return loaded(text);
}
