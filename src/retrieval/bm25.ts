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

/** A query term as a search reads it. */
interface Term {
  postings: { doc: number[]; tf: number[] };
  idf: number;
  /** The most it can add to a document's score: idf × (k1 + 1), approached as its count grows. */
  most: number;
  k1: number;
}

/** The first position in an ascending list holding a number at least `x` (the length if none). */
function firstAtLeast(list: number[], x: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Scratch space of the query running now, shared by every index: scoring is synchronous, so one
 * is enough, and a process holding a thousand scopes keeps one, not one per scope. It grows to the
 * largest index searched.
 * - `acc`: scores by document number, all zeros between queries;
 * - `touched`: the documents a query has touched, in the order first touched. Reused because a
 *   common word touches most of a large scope, and a fresh array grown to 100K entries at every
 *   query cost more than the scoring (profiled on `npm run bench -- live`);
 * - `wanted`: marks of the documents a narrowed search still reads, all zeros between queries.
 */
const scratch = { acc: new Float64Array(16), touched: new Int32Array(16), wanted: new Uint8Array(16) };

/** Makes the scratch space hold documents numbered below `docs`. */
function scratchFor(docs: number): void {
  if (scratch.acc.length >= docs) return;
  const size = Math.max(16, docs * 2);
  scratch.acc = new Float64Array(size);
  scratch.touched = new Int32Array(size);
  scratch.wanted = new Uint8Array(size);
}

export class Bm25Index {
  private readonly ids: string[] = [];
  private readonly postings = new Map<string, { doc: number[]; tf: number[] }>();
  private readonly lengths: number[] = [];
  private totalLength = 0;
  /** Documents taken out: their numbers stay, so the documents after them keep theirs. */
  private readonly removed = new Set<number>();
  private byteCount = 0;
  /** How many documents of `scratch.touched` the query running now has touched. */
  private touchedCount = 0;
  /**
   * Each document's length part of the BM25 denominator, k1 × (1 − b + b × length / average), for
   * the average it was computed at (NaN once a document changes): one multiply-add per document
   * after a write, instead of one per posting at every query.
   */
  private norms = new Float64Array(16);
  private normsAt = Number.NaN;

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
      // Postings stay in document order (a narrowed search looks documents up by binary search):
      // a replaced document goes back to its place, not to the end.
      const at = p.doc.length && p.doc[p.doc.length - 1]! > doc ? firstAtLeast(p.doc, doc) : p.doc.length;
      if (at === p.doc.length) {
        p.doc.push(doc);
        p.tf.push(n);
      } else {
        p.doc.splice(at, 0, doc);
        p.tf.splice(at, 0, n);
      }
      this.byteCount += 16;
    }
    this.lengths[doc] = words.length;
    this.totalLength += words.length;
    this.normsAt = Number.NaN;
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
    this.normsAt = Number.NaN;
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

  /** Roughly the bytes held: postings, lengths, norms and ids (for the index budget), counted as they change. */
  get bytes(): number {
    return this.byteCount + 48 * this.ids.length + this.norms.byteLength;
  }

  /** Scores by document number, for the documents `admitted` allows (all when omitted). */
  scores(query: string, admitted?: Uint8Array): Map<number, number> {
    for (const t of this.plan(query)) this.read(t, admitted);
    const out = new Map<number, number>();
    const { acc, touched } = scratch;
    for (let i = 0; i < this.touchedCount; i++) {
      out.set(touched[i]!, acc[touched[i]!]!);
      acc[touched[i]!] = 0;
    }
    this.touchedCount = 0;
    return out;
  }

  /**
   * The `k` best documents, as `TopK.of(scores(query, admitted), k, floor(best))` would give them,
   * without a map of every match: a common word can match most of a large scope. `floor` must not
   * fall as `best` rises.
   *
   * Terms are read rarest first, as in MaxScore (Turtle and Flood, 1995): a term adds at most
   * idf × (k1 + 1) to a document. Once the terms still to read cannot lift a document that none
   * of the read terms matched over the bar (the k-th best score so far, or the floor), the search
   * narrows: the common terms' long postings are only looked up for the documents that can still
   * make the cut. The answer is the same as a full reading's.
   */
  top(
    query: string,
    k: number,
    options: { admitted?: Uint8Array; floor?: (best: number) => number } = {},
  ): Scored[] {
    const { admitted, floor } = options;
    const terms = this.plan(query);
    const touched = scratch.touched;
    // rest[j]: the most that terms j and after can add (widened a little against rounding).
    const rest = new Float64Array(terms.length + 1);
    for (let j = terms.length - 1; j >= 0; j--) rest[j] = rest[j + 1]! + terms[j]!.most;
    for (let j = 0; j < terms.length; j++) rest[j]! *= 1 + 1e-9;
    const floorOf = (best: number) => (floor ? floor(best) : Number.NEGATIVE_INFINITY);
    // postings[j]: the postings of terms j and after, read through.
    const postings = new Float64Array(terms.length + 1);
    for (let j = terms.length - 1; j >= 0; j--)
      postings[j] = postings[j + 1]! + terms[j]!.postings.doc.length;
    const found = () => this.touchedCount;
    let best = 0;
    let j = 0;
    let bar = Number.NEGATIVE_INFINITY;
    let tried = Number.POSITIVE_INFINITY;
    for (; j < terms.length; j++) {
      // A look reads every document found. It is worth it once the unread terms could not lift a
      // new document over the best so far, when their postings are longer than twice what was
      // found, and again only after they have shrunk by a third.
      if (
        j > 0 &&
        rest[j]! < Math.max(best, floorOf(best)) &&
        rest[j]! <= 0.7 * tried &&
        postings[j]! > 2 * found()
      ) {
        tried = rest[j]!;
        bar = Math.max(floorOf(best), this.kth(k));
        // Narrowing pays when few documents can still make the cut against the postings left to read.
        if (rest[j]! < bar && this.reaching(rest[j]!, bar, postings[j]! / 8)) break;
      }
      best = Math.max(best, this.read(terms[j]!, admitted));
    }
    const acc = scratch.acc;
    const count = this.touchedCount;
    this.touchedCount = 0;
    const top = new TopK(k);
    if (j === terms.length) {
      // Read through: `best` is the best total, and one pass ranks and clears.
      const min = floorOf(best);
      for (let i = 0; i < count; i++) {
        const doc = touched[i]!;
        const score = acc[doc]!;
        if (score >= min) top.push(doc, score);
        acc[doc] = 0;
      }
      return top.sorted();
    }
    // Narrowed: only documents already found that the unread terms could still lift over the bar.
    let candidates: number[] = [];
    for (let i = 0; i < count; i++) if (acc[touched[i]!]! + rest[j]! >= bar) candidates.push(touched[i]!);
    for (; j < terms.length; j++) {
      this.addTo(terms[j]!, candidates);
      candidates = candidates.filter((doc) => acc[doc]! + rest[j + 1]! >= bar);
    }
    best = 0;
    for (const doc of candidates) if (acc[doc]! > best) best = acc[doc]!;
    const min = floorOf(best);
    for (const doc of candidates) if (acc[doc]! >= min) top.push(doc, acc[doc]!);
    for (let i = 0; i < count; i++) acc[touched[i]!] = 0;
    return top.sorted();
  }

  /** The query's terms that occur here, with their idf and most they can add, rarest first. */
  private plan(query: string): Term[] {
    const k1 = this.options.k1 ?? 1.2;
    const b = this.options.b ?? 0.75;
    // Statistics of the documents held, as a fresh index of them would count them.
    const n = this.size;
    const average = this.totalLength / Math.max(1, n) || 1;
    if (this.normsAt !== average) this.normsFor(k1, b, average);
    scratchFor(this.ids.length);
    const terms: Term[] = [];
    for (const term of new Set((this.options.terms ?? bm25Terms)(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.doc.length + 0.5) / (p.doc.length + 0.5));
      terms.push({
        postings: p,
        idf,
        most: idf * (k1 + 1),
        k1,
      });
    }
    return terms.sort((x, y) => y.most - x.most || x.postings.doc.length - y.postings.doc.length);
  }

  /** Computes every document's length norm for `average` (the same arithmetic a posting would do). */
  private normsFor(k1: number, b: number, average: number): void {
    if (this.norms.length < this.ids.length) this.norms = new Float64Array(this.ids.length * 2);
    const { norms, lengths } = this;
    for (let doc = 0; doc < lengths.length; doc++) norms[doc] = k1 * (1 - b + (b * lengths[doc]!) / average);
    this.normsAt = average;
  }

  /** A term's score in a document where it occurs `f` times. */
  private weight(t: Term, f: number, doc: number): number {
    return (t.idf * f * (t.k1 + 1)) / (f + this.norms[doc]!);
  }

  /**
   * Adds a term's scores to every admitted document it occurs in, listing the newly touched ones;
   * returns the best total among them.
   */
  private read(t: Term, admitted: Uint8Array | undefined): number {
    const acc = scratch.acc;
    const touched = scratch.touched;
    let count = this.touchedCount;
    const norms = this.norms;
    const { doc: docs, tf } = t.postings;
    // weight() spelled out, same arithmetic, with the term's constants in locals: this loop runs
    // once per posting.
    const { idf, k1 } = t;
    let best = 0;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i]!;
      if (admitted && !admitted[doc]) continue;
      const f = tf[i]!;
      const held = acc[doc]!;
      if (held === 0) touched[count++] = doc;
      const v = held + (idf * f * (k1 + 1)) / (f + norms[doc]!);
      acc[doc] = v;
      if (v > best) best = v;
    }
    this.touchedCount = count;
    return best;
  }

  /** Adds a term's scores to the given documents only: looked up one by one, or read through when that is cheaper. */
  private addTo(t: Term, docs: number[]): void {
    const { doc: postings, tf } = t.postings;
    if (docs.length * Math.log2(postings.length + 1) < postings.length) {
      for (const doc of docs) {
        const at = firstAtLeast(postings, doc);
        if (postings[at] === doc) scratch.acc[doc]! += this.weight(t, tf[at]!, doc);
      }
      return;
    }
    const wanted = scratch.wanted;
    for (const doc of docs) wanted[doc] = 1;
    for (let i = 0; i < postings.length; i++) {
      const doc = postings[i]!;
      if (wanted[doc]) scratch.acc[doc]! += this.weight(t, tf[i]!, doc);
    }
    for (const doc of docs) wanted[doc] = 0;
  }

  /** Whether at most `most` of the documents found so far could be lifted to `bar` by the unread terms (adding at most `rest`). */
  private reaching(rest: number, bar: number, most: number): boolean {
    let n = 0;
    for (let i = 0; i < this.touchedCount; i++)
      if (scratch.acc[scratch.touched[i]!]! + rest >= bar && ++n > most) return false;
    return true;
  }

  /**
   * A floor under the k-th best score of the documents found so far: the k-th best among the
   * first found (the rarest terms' documents, most often the best). Minus infinity with fewer than k.
   */
  private kth(k: number): number {
    const seen = Math.min(this.touchedCount, Math.max(16 * k, 4096));
    if (seen < k || k <= 0) return Number.NEGATIVE_INFINITY;
    const top = new TopK(k);
    for (let i = 0; i < seen; i++) top.push(scratch.touched[i]!, scratch.acc[scratch.touched[i]!]!);
    return top.floor;
  }

  /** The `k` best documents by id, best first. */
  search(query: string, k: number): { id: string; score: number }[] {
    return [...this.scores(query)]
      .map(([doc, score]) => ({ id: this.ids[doc]!, score }))
      .sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1))
      .slice(0, k);
  }
}
