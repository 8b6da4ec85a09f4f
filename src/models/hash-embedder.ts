/**
 * The hashing embedder (`embedder: "hash"`): fast, lexical and deterministic, for machines without
 * the bundled encoder's time or memory, and for tests. Texts that share words are close; it knows
 * no synonyms.
 */
import { fnv1a, terms } from "../core/text.js";
import { normalize } from "../core/vector.js";
import { mapInSlices } from "../core/yield-to-loop.js";
import type { Embedder } from "./embedder.js";

/**
 * Bag of stemmed words and word pairs, hashed into `dimensions` signed buckets. Texts that share
 * words are close; it knows no synonyms. Deterministic across runs and machines.
 */
export class HashEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  readonly name: string;

  constructor(readonly dimensions = 256) {
    this.name = `hash-${dimensions}`;
  }

  /**
   * Embeds in this thread, giving the event loop back between texts once a slice of time is used
   * (`mapInSlices`): a long turn is a thousand passages.
   */
  embed(texts: string[]): Promise<Float32Array[]> {
    return mapInSlices(texts, (text) => this.vector(text));
  }

  private vector(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    const words = terms(text);
    const features = [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
    for (const f of features) {
      const h = fnv1a(f);
      v[h % this.dimensions]! += h & 0x80000000 ? -1 : 1;
    }
    return normalize(v);
  }
}
