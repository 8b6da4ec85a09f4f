/**
 * Okapi BM25 as Lucene and tantivy score it (idf = ln(1 + (N - df + 0.5) / (df + 0.5)), k1 1.2,
 * b 0.75, length = the document's term count), over bm25-terms.ts's analyzer, with postings: a
 * query scores only the documents its terms occur in, so large scopes stay fast. Documents are
 * numbered in the order they are added.
 */
import { bm25Terms } from "./bm25-terms.js";
import type { Scored } from "./fusion.js";
import { TopK } from "./top-k.js";

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
  /** Documents taken out: their numbers stay, so the documents after them keep theirs. */
  private readonly removed = new Set<number>();
  private byteCount = 0;
  /** Scratch scores, all zeros between queries (scoring is synchronous, so one is enough). */
  private acc = new Float64Array(16);

  constructor(private readonly options: Bm25Options = {}) {}

  /** Adds a document; returns its number. */
  add(id: string, text: string): number {
    const doc = this.ids.length;
    this.ids.push(id);
    this.lengths.push(0);
    this.index(doc, text);
    return doc;
  }

  private index(doc: number, text: string): void {
    const words = (this.options.terms ?? bm25Terms)(text);
    const tf = new Map<string, number>();
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, n] of tf) {
      let p = this.postings.get(w);
      if (!p) {
        p = { doc: [], tf: [] };
        this.postings.set(w, p);
        this.byteCount += 2 * w.length + 64;
      }
      p.doc.push(doc);
      p.tf.push(n);
      this.byteCount += 16;
    }
    this.lengths[doc] = words.length;
    this.totalLength += words.length;
  }

  /** Takes a document out (its number stays taken); `text` is what it was added with. */
  remove(doc: number, text: string): void {
    if (this.removed.has(doc)) return;
    for (const w of new Set((this.options.terms ?? bm25Terms)(text))) {
      const p = this.postings.get(w);
      const at = p?.doc.indexOf(doc) ?? -1;
      if (!p || at < 0) continue;
      p.doc.splice(at, 1);
      p.tf.splice(at, 1);
      this.byteCount -= 16;
      if (p.doc.length === 0) {
        this.postings.delete(w);
        this.byteCount -= 2 * w.length + 64;
      }
    }
    this.totalLength -= this.lengths[doc]!;
    this.lengths[doc] = 0;
    this.removed.add(doc);
  }

  /** Gives a document new text under the same number; `old` is its text now. */
  replace(doc: number, old: string, text: string): void {
    this.remove(doc, old);
    this.removed.delete(doc);
    this.index(doc, text);
  }

  /** Documents held, removed ones not counted. */
  get size(): number {
    return this.ids.length - this.removed.size;
  }

  /** Roughly the bytes held: postings, lengths and ids (for the index budget), counted as they change. */
  get bytes(): number {
    return this.byteCount + 48 * this.ids.length;
  }

  /** Scores by document number, for the documents `admitted` allows (all when omitted). */
  scores(query: string, admitted?: Uint8Array): Map<number, number> {
    const touched = this.accumulate(query, admitted);
    const out = new Map(touched.map((doc) => [doc, this.acc[doc]!]));
    for (const doc of touched) this.acc[doc] = 0;
    return out;
  }

  /**
   * The `k` best documents, as `TopK.of(scores(query, admitted), k, floor(best))` would give them,
   * without a map of every match: a common word can match most of a large scope.
   */
  top(
    query: string,
    k: number,
    options: { admitted?: Uint8Array; floor?: (best: number) => number } = {},
  ): Scored[] {
    const touched = this.accumulate(query, options.admitted);
    let best = 0;
    for (const doc of touched) if (this.acc[doc]! > best) best = this.acc[doc]!;
    const min = options.floor ? options.floor(best) : Number.NEGATIVE_INFINITY;
    const top = new TopK(k);
    for (const doc of touched) {
      const score = this.acc[doc]!;
      if (score >= min) top.push(doc, score);
      this.acc[doc] = 0;
    }
    return top.sorted();
  }

  /** Adds the query's scores into the scratch accumulator; returns the documents touched, in order. */
  private accumulate(query: string, admitted?: Uint8Array): number[] {
    const k1 = this.options.k1 ?? 1.2;
    const b = this.options.b ?? 0.75;
    // Statistics of the documents held, as a fresh index of them would count them.
    const n = this.size;
    const average = this.totalLength / Math.max(1, n) || 1;
    if (this.acc.length < this.ids.length) this.acc = new Float64Array(Math.max(16, this.ids.length * 2));
    const acc = this.acc;
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
    return touched;
  }

  /** The `k` best documents by id, best first. */
  search(query: string, k: number): { id: string; score: number }[] {
    return [...this.scores(query)]
      .map(([doc, score]) => ({ id: this.ids[doc]!, score }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      .slice(0, k);
  }
}
