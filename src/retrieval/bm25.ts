/**
 * Okapi BM25 as Lucene and tantivy score it (idf = ln(1 + (N - df + 0.5) / (df + 0.5)), k1 1.2,
 * b 0.75, length = the document's term count), over bm25-terms.ts's analyzer, with postings: a
 * query scores only the documents its terms occur in, so large scopes stay fast. Documents are
 * numbered in the order they are added.
 */
import { bm25Terms } from "./bm25-terms.js";

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** How text becomes index terms (default bm25Terms). */
  terms?: (text: string) => string[];
}

export class Bm25Index {
  private readonly ids: string[] = [];
  private readonly postings = new Map<string, { doc: number[]; tf: number[] }>();
  private readonly lengths: number[] = [];
  private totalLength = 0;

  constructor(private readonly options: Bm25Options = {}) {}

  /** Adds a document; returns its number. */
  add(id: string, text: string): number {
    const doc = this.ids.length;
    const words = (this.options.terms ?? bm25Terms)(text);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, n] of tf) {
      const p = this.postings.get(w) ?? { doc: [], tf: [] };
      p.doc.push(doc);
      p.tf.push(n);
      this.postings.set(w, p);
    }
    this.ids.push(id);
    this.lengths.push(words.length);
    this.totalLength += words.length;
    return doc;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Scores by document number, for the documents `admitted` allows (all when omitted). */
  scores(query: string, admitted?: Uint8Array): Map<number, number> {
    const k1 = this.options.k1 ?? 1.2;
    const b = this.options.b ?? 0.75;
    const n = this.ids.length;
    const average = this.totalLength / Math.max(1, n) || 1;
    const acc = new Float64Array(n);
    const touched: number[] = [];
    for (const term of new Set((this.options.terms ?? bm25Terms)(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.doc.length + 0.5) / (p.doc.length + 0.5));
      for (let i = 0; i < p.doc.length; i++) {
        const doc = p.doc[i]!;
        if (admitted && !admitted[doc]) continue;
        const f = p.tf[i]!;
        if (acc[doc] === 0) touched.push(doc);
        acc[doc]! += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * this.lengths[doc]!) / average));
      }
    }
    return new Map(touched.map((doc) => [doc, acc[doc]!]));
  }

  /** The `k` best documents by id, best first. */
  search(query: string, k: number): { id: string; score: number }[] {
    return [...this.scores(query)]
      .map(([doc, score]) => ({ id: this.ids[doc]!, score }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      .slice(0, k);
  }
}
