/** Okapi BM25 over a small document set, built per query from stemmed content terms. */
import { terms } from "../core/text.js";

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export class Bm25Index {
  private readonly docs: { id: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(private readonly options: Bm25Options = {}) {}

  add(id: string, text: string): void {
    const tf = new Map<string, number>();
    const words = terms(text);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    this.docs.push({ id, tf, length: words.length });
    this.totalLength += words.length;
  }

  get size(): number {
    return this.docs.length;
  }

  search(query: string, k: number): { id: string; score: number }[] {
    const q = [...new Set(terms(query))];
    if (q.length === 0 || this.docs.length === 0) return [];
    const k1 = this.options.k1 ?? 1.2;
    const b = this.options.b ?? 0.75;
    const n = this.docs.length;
    const avg = this.totalLength / n || 1;
    const hits: { id: string; score: number }[] = [];
    for (const doc of this.docs) {
      let score = 0;
      for (const term of q) {
        const f = doc.tf.get(term);
        if (!f) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * doc.length) / avg));
      }
      if (score > 0) hits.push({ id: doc.id, score });
    }
    hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1));
    return hits.slice(0, k);
  }
}
