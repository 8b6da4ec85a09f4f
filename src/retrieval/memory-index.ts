/**
 * A scope's memories held ready for search: BM25 postings (score only the documents a query term
 * occurs in) and one contiguous matrix of unit vectors (one pass of dot products). Built once per
 * scope and rebuilt when the store's change version moves.
 */
import { terms } from "../core/text.js";
import type { Memory, MemoryFilter, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";

const K1 = 1.2;
const B = 0.75;

export class MemoryIndex {
  readonly memories: Memory[];
  private readonly postings = new Map<string, { doc: number[]; tf: number[] }>();
  private readonly lengths: Uint16Array;
  private readonly averageLength: number;
  /** Row-major, `dims` floats per memory; a memory with no stored vector is all zeros. */
  private readonly matrix: Float32Array;
  private readonly dims: number;

  private constructor(memories: Memory[], vectors: Map<string, Float32Array>, dims: number) {
    this.memories = memories;
    this.dims = dims;
    this.lengths = new Uint16Array(memories.length);
    let total = 0;
    memories.forEach((m, doc) => {
      const words = terms(m.text);
      this.lengths[doc] = Math.min(words.length, 65_535);
      total += words.length;
      const tf = new Map<string, number>();
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const [w, n] of tf) {
        const p = this.postings.get(w) ?? { doc: [], tf: [] };
        p.doc.push(doc);
        p.tf.push(n);
        this.postings.set(w, p);
      }
    });
    this.averageLength = total / Math.max(1, memories.length) || 1;
    this.matrix = new Float32Array(memories.length * dims);
    memories.forEach((m, doc) => {
      const v = vectors.get(m.id);
      if (v) this.matrix.set(v.subarray(0, dims), doc * dims);
    });
  }

  static async build(store: MemoryStore, scope: Scope, model: string, dims: number): Promise<MemoryIndex> {
    const memories = await store.listMemories(scope, { status: "any" });
    const vectors = await store.getEmbeddings(
      scope,
      "memory",
      memories.map((m) => m.id),
      model,
    );
    const width = dims || vectors.values().next().value?.length || 0;
    return new MemoryIndex(memories, vectors, width);
  }

  private readonly masks = new Map<string, Uint8Array>();

  /** Which memories a filter admits (active only unless the filter says otherwise); cached per filter. */
  admitted(filter: MemoryFilter = {}): Uint8Array {
    const key = JSON.stringify(filter);
    const cached = this.masks.get(key);
    if (cached) return cached;
    const asSet = (v: string | string[] | undefined) =>
      v === undefined ? null : new Set(Array.isArray(v) ? v : [v]);
    const statuses = filter.status === "any" ? null : asSet(filter.status ?? "active");
    const abouts = asSet(filter.about);
    const kinds = asSet(filter.kind);
    const ids = filter.ids ? new Set(filter.ids) : null;
    const mask = Uint8Array.from(this.memories, (m) =>
      (!statuses || statuses.has(m.status)) &&
      (!abouts || abouts.has(m.about)) &&
      (!kinds || kinds.has(m.kind)) &&
      (!filter.strategy || m.strategy === filter.strategy) &&
      (!filter.sessionId || m.sessionId === filter.sessionId) &&
      (!ids || ids.has(m.id))
        ? 1
        : 0,
    );
    if (this.masks.size > 64) this.masks.clear();
    this.masks.set(key, mask);
    return mask;
  }

  /** BM25 scores of the admitted memories that share a term with the query. */
  bm25(query: string, admitted: Uint8Array): Map<number, number> {
    const n = this.memories.length;
    const acc = new Float64Array(n);
    const touched: number[] = [];
    for (const term of new Set(terms(query))) {
      const p = this.postings.get(term);
      if (!p) continue;
      const idf = Math.log(1 + (n - p.doc.length + 0.5) / (p.doc.length + 0.5));
      for (let i = 0; i < p.doc.length; i++) {
        const doc = p.doc[i]!;
        if (!admitted[doc]) continue;
        const f = p.tf[i]!;
        if (acc[doc] === 0) touched.push(doc);
        acc[doc]! +=
          (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.lengths[doc]!) / this.averageLength));
      }
    }
    return new Map(touched.map((doc) => [doc, acc[doc]!]));
  }

  /** The `k` admitted memories most similar to a unit query vector. */
  dense(query: Float32Array, admitted: Uint8Array, k: number): { doc: number; score: number }[] {
    const d = this.dims;
    const m = this.matrix;
    const top: { doc: number; score: number }[] = [];
    let floor = Number.NEGATIVE_INFINITY;
    for (let doc = 0; doc < this.memories.length; doc++) {
      if (!admitted[doc]) continue;
      // Four lanes: the dot product is the hot loop of every recall.
      const off = doc * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < d; i += 4) {
        s0 += m[off + i]! * query[i]!;
        s1 += m[off + i + 1]! * query[i + 1]!;
        s2 += m[off + i + 2]! * query[i + 2]!;
        s3 += m[off + i + 3]! * query[i + 3]!;
      }
      for (; i < d; i++) s0 += m[off + i]! * query[i]!;
      const s = s0 + s1 + s2 + s3;
      if (top.length < k || s > floor) {
        top.push({ doc, score: s });
        if (top.length > k) {
          top.sort((a, b) => b.score - a.score);
          top.length = k;
        }
        floor = top.length === k ? Math.min(...top.map((t) => t.score)) : Number.NEGATIVE_INFINITY;
      }
    }
    return top.sort((a, b) => b.score - a.score);
  }
}
