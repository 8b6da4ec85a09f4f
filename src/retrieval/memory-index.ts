/**
 * A scope's memories held ready for search: BM25 postings (score only the documents a query term
 * occurs in), one contiguous matrix of unit vectors (one pass of dot products) and the edges as
 * adjacency lists. Built once per scope on a cold load, then kept current in place from the
 * store's change log (`update`): new memories are appended, changed ones (superseded, redacted)
 * rewritten, forgotten ones taken out, edges relinked. A memory's document number never changes,
 * so what a search holds stays valid while the index moves on.
 */

import { memoryFilterTest } from "../core/memory-filter.js";
import { type Edge, type Memory, type MemoryFilter, type Scope, STANDING_KIND } from "../core/types.js";
import { cosine } from "../core/vector.js";
import { breathe } from "../core/yield-to-loop.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";
import { DayScale, type UnitTime, unitTime } from "./asked-time.js";
import { Bm25Index } from "./bm25.js";
import type { Scored } from "./fusion.js";
import { VectorMatrix } from "./vector-matrix.js";

/** A cached filter: which documents it admits, kept current as documents come and change. */
interface Mask {
  admits: (m: Memory) => boolean;
  bits: Uint8Array;
}

export class MemoryIndex {
  /** Document number -> memory (a forgotten one stays in place, never admitted). */
  readonly memories: Memory[] = [];
  /** The scope version the index holds everything up to. */
  version = "0";
  private readonly position = new Map<string, number>();
  private readonly gone = new Set<number>();
  /** Characters of text held, as bytes (for the index budget). */
  private textBytes = 0;
  private readonly lexical = new Bm25Index();
  private readonly matrix: VectorMatrix;
  /** Memories joined by an edge of any type, in both directions (graph expansion). */
  private readonly linked: number[][] = [];
  /** Turn id -> the memories made from it. */
  private readonly cites = new Map<string, number[]>();
  private readonly times: (UnitTime | undefined)[] = [];
  private readonly days = new DayScale();
  private readonly masks = new Map<string, Mask>();
  /** Documents held without a vector (none stored under this embedder): dense search scores them 0. */
  private readonly unvectored = new Set<number>();
  /** The latest time any memory was observed: the scope's conversational present. */
  latest = "";

  private constructor(
    dims: number,
    private readonly withVectors: boolean,
  ) {
    this.matrix = new VectorMatrix(0, dims);
  }

  /**
   * Loads the scope's memories and edges (and vectors, unless `vectors: false`: the dense signal
   * then comes from elsewhere, such as a vector index in the database).
   */
  static async build(
    store: MemoryStore,
    scope: Scope,
    model: string,
    dims: number,
    options: { vectors?: boolean } = {},
  ): Promise<MemoryIndex> {
    const [memories, edges] = await Promise.all([
      store.listMemories(scope, { status: "any" }),
      store.listEdges(scope),
    ]);
    const withVectors = options.vectors !== false;
    const vectors = withVectors
      ? await store.getEmbeddings(
          scope,
          "memory",
          memories.map((m) => m.id),
          model,
        )
      : new Map<string, Float32Array>();
    const width = withVectors ? dims || vectors.values().next().value?.length || 0 : 0;
    const index = new MemoryIndex(width, withVectors);
    index.matrix.reserve(memories.length);
    for (const [i, m] of memories.entries()) {
      if (m.kind !== STANDING_KIND) index.append(m, vectors.get(m.id));
      if (i % 64 === 63) await breathe();
    }
    // Every adjacency is empty yet: the edges are added a slice at a time (relinking the whole
    // scope at once held the loop on top of the last slice; `npm run bench -- live --parts stalls`).
    const seen = new Set<string>();
    for (const [i, e] of edges.entries()) {
      if (!seen.has(e.id)) index.link(e);
      seen.add(e.id);
      if (i % 256 === 255) await breathe();
    }
    await breathe();
    return index;
  }

  /**
   * Brings the index up to `changes` (read from the store's change log): reads the rows named,
   * then applies them at once. Applying the same changes twice gives the same index.
   */
  async update(store: MemoryStore, scope: Scope, model: string, changes: ScopeChanges): Promise<void> {
    const ids = [...new Set(changes.memories)];
    const rows = ids.length ? await store.listMemories(scope, { ids, status: "any" }) : [];
    const found = new Map(rows.map((m) => [m.id, m]));
    const vectorIds = [
      ...new Set([...changes.memoryVectors, ...rows.filter((m) => this.textChanged(m)).map((m) => m.id)]),
    ];
    const vectors =
      this.withVectors && vectorIds.length
        ? await store.getEmbeddings(scope, "memory", vectorIds, model)
        : new Map<string, Float32Array>();
    const ends = [...new Set(changes.edges.flatMap((e) => [e.from, e.to]))];
    const edges = ends.length ? await store.listEdges(scope, ends) : [];
    // Everything is read: from here on the index changes in one synchronous step.
    for (const id of ids) {
      // Standing items are listed, never searched: the index never holds one.
      const m = found.get(id)?.kind === STANDING_KIND ? undefined : found.get(id);
      const doc = this.position.get(id);
      if (!m) {
        if (doc !== undefined) this.remove(doc);
      } else if (doc === undefined || this.gone.has(doc)) this.append(m, vectors.get(id));
      else this.rewrite(doc, m);
    }
    for (const id of vectorIds) {
      const doc = this.position.get(id);
      if (doc === undefined || this.gone.has(doc) || !this.withVectors) continue;
      const v = vectors.get(id);
      if (v) {
        this.matrix.set(doc, v);
        this.unvectored.delete(doc);
      } else {
        this.matrix.clear(doc);
        this.unvectored.add(doc);
      }
    }
    const touched = new Set<number>();
    for (const id of ends) {
      const doc = this.position.get(id);
      if (doc !== undefined) touched.add(doc);
    }
    this.relink(touched, edges);
    this.version = changes.version;
  }

  private textChanged(m: Memory): boolean {
    const doc = this.position.get(m.id);
    return doc === undefined || this.gone.has(doc) || this.memories[doc]!.text !== m.text;
  }

  private append(m: Memory, vector: Float32Array | undefined): void {
    const doc = this.memories.length;
    this.memories.push(m);
    this.textBytes += 2 * m.text.length;
    this.position.set(m.id, doc);
    this.lexical.add(m.id, m.text);
    this.matrix.append(this.withVectors ? vector : undefined);
    if (this.withVectors && !vector) this.unvectored.add(doc);
    this.linked.push([]);
    this.times.push(undefined);
    this.cite(doc, m.sourceTurns, +1);
    this.days.add(m.observedAt);
    if (m.observedAt > this.latest) this.latest = m.observedAt;
    for (const mask of this.masks.values()) {
      if (mask.bits.length <= doc) {
        const grown = new Uint8Array(Math.max(16, mask.bits.length * 2));
        grown.set(mask.bits);
        mask.bits = grown;
      }
      mask.bits[doc] = mask.admits(m) ? 1 : 0;
    }
  }

  private rewrite(doc: number, m: Memory): void {
    const old = this.memories[doc]!;
    if (old.text !== m.text) {
      this.lexical.replace(doc, old.text, m.text);
      this.times[doc] = undefined;
    }
    if (old.observedAt !== m.observedAt) {
      this.days.remove(old.observedAt);
      this.days.add(m.observedAt);
      if (m.observedAt > this.latest) this.latest = m.observedAt;
      else if (old.observedAt === this.latest) this.latest = this.newest();
    }
    this.cite(doc, old.sourceTurns, -1);
    this.cite(doc, m.sourceTurns, +1);
    this.textBytes += 2 * (m.text.length - old.text.length);
    this.memories[doc] = m;
    for (const mask of this.masks.values()) mask.bits[doc] = mask.admits(m) ? 1 : 0;
  }

  private remove(doc: number): void {
    if (this.gone.has(doc)) return;
    const m = this.memories[doc]!;
    this.gone.add(doc);
    this.unvectored.delete(doc);
    this.lexical.remove(doc, m.text);
    this.matrix.clear(doc);
    for (const n of this.linked[doc]!) this.linked[n] = this.linked[n]!.filter((x) => x !== doc);
    this.linked[doc] = [];
    this.cite(doc, m.sourceTurns, -1);
    this.days.remove(m.observedAt);
    if (m.observedAt === this.latest) this.latest = this.newest();
    for (const mask of this.masks.values()) mask.bits[doc] = 0;
  }

  private newest(): string {
    let latest = "";
    for (const [doc, m] of this.memories.entries())
      if (!this.gone.has(doc) && m.observedAt > latest) latest = m.observedAt;
    return latest;
  }

  private cite(doc: number, turns: readonly string[], sign: 1 | -1): void {
    for (const t of turns) {
      const docs = this.cites.get(t) ?? [];
      if (sign > 0) {
        if (!docs.includes(doc)) docs.push(doc);
        this.cites.set(t, docs);
      } else {
        const rest = docs.filter((d) => d !== doc);
        if (rest.length) this.cites.set(t, rest);
        else this.cites.delete(t);
      }
    }
  }

  /** Adds one edge's adjacency, unless an end is unknown or gone, or it joins a memory to itself. */
  private link(e: Edge): void {
    const a = this.position.get(e.from);
    const b = this.position.get(e.to);
    if (a === undefined || b === undefined || a === b || this.gone.has(a) || this.gone.has(b)) return;
    this.linked[a]!.push(b);
    this.linked[b]!.push(a);
  }

  /** Rebuilds the adjacency of the `touched` documents from the edges that touch them. */
  private relink(touched: Set<number>, edges: Edge[]): void {
    for (const doc of touched) {
      for (const n of this.linked[doc]!)
        if (!touched.has(n)) this.linked[n] = this.linked[n]!.filter((x) => x !== doc);
      this.linked[doc] = [];
    }
    const seen = new Set<string>();
    for (const e of edges) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      const a = this.position.get(e.from);
      const b = this.position.get(e.to);
      if ((a !== undefined && touched.has(a)) || (b !== undefined && touched.has(b))) this.link(e);
    }
  }

  /** The document number of a memory, if the index holds it. */
  docOf(id: string): number | undefined {
    const doc = this.position.get(id);
    return doc === undefined || this.gone.has(doc) ? undefined : doc;
  }

  /** Memories held (forgotten ones not counted). */
  get size(): number {
    return this.memories.length - this.gone.size;
  }

  /**
   * Roughly the bytes this index holds (for the index budget). The 850 bytes per memory were
   * measured as the turn index's 700 were (turn-search.ts), on 100 scopes of 1K memories.
   */
  get bytes(): number {
    return this.textBytes + 850 * this.memories.length + this.matrix.bytes + this.lexical.bytes;
  }

  /** The memories that cite a turn as a source. */
  citing(turnId: string): readonly number[] {
    return this.cites.get(turnId) ?? [];
  }

  /** Memories linked to `doc` by an edge. */
  neighbours(doc: number): readonly number[] {
    return this.linked[doc] ?? [];
  }

  /** When a memory was observed and what times its text mentions (read on first use). */
  time(doc: number): UnitTime {
    const m = this.memories[doc]!;
    this.times[doc] ??= unitTime(m.text, m.observedAt);
    return this.times[doc]!;
  }

  /** How recently a memory was observed: 0 for the scope's oldest, 1 for its newest. */
  recency(doc: number): number {
    return this.days.scale(Date.parse(this.memories[doc]!.observedAt));
  }

  /** Which memories a filter admits (active only unless the filter says otherwise); cached per filter. */
  admitted(filter: MemoryFilter = {}): Uint8Array {
    const key = JSON.stringify(filter);
    const cached = this.masks.get(key);
    if (cached) return cached.bits;
    const admits = memoryFilterTest(filter);
    const bits = new Uint8Array(Math.max(16, this.memories.length));
    for (const [doc, m] of this.memories.entries()) bits[doc] = !this.gone.has(doc) && admits(m) ? 1 : 0;
    if (this.masks.size > 64) this.masks.clear();
    this.masks.set(key, { admits, bits });
    return bits;
  }

  /** BM25 scores of the admitted memories that share a term with the query, by position. */
  bm25(query: string, admitted: Uint8Array): Map<number, number> {
    return this.lexical.scores(query, admitted);
  }

  /** The `k` best admitted memories by BM25, dropping those under `floor(best score)`. */
  bm25Top(query: string, admitted: Uint8Array, k: number, floor: (best: number) => number): Scored[] {
    return this.lexical.top(query, k, { admitted, floor });
  }

  /**
   * The admitted memories the index holds no vector for (a memory written under another embedder
   * and not reindexed yet): `dense` scores them 0, so a caller that must compare every memory by
   * meaning embeds these itself. Empty for an index that keeps no vectors.
   */
  withoutVector(admitted: Uint8Array): number[] {
    return [...this.unvectored].filter((doc) => admitted[doc]).sort((a, b) => a - b);
  }

  /**
   * Cosine of a memory's vector to `vector`, summed in double precision as `core/vector.ts`'s
   * `cosine` does (the dense scan sums in float32); undefined for an index that keeps no vectors.
   */
  cosine(doc: number, vector: Float32Array): number | undefined {
    return this.withVectors ? cosine(vector, this.matrix.vector(doc)) : undefined;
  }

  /** The `k` admitted memories most similar to a unit query vector. */
  dense(query: Float32Array, admitted: Uint8Array, k: number): Scored[] {
    return this.matrix.nearest(query, k, admitted);
  }
}
