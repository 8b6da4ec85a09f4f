/**
 * A scope's memories held ready for search: BM25 postings (score only the documents a query term
 * occurs in), one contiguous matrix of unit vectors (one pass of dot products) and the edges as
 * adjacency lists. Built once per scope and rebuilt when the store's change version moves.
 */
import type { Edge, Memory, MemoryFilter, Scope } from "../core/types.js";
import type { MemoryStore } from "../store/memory-store.js";
import { recencyScale, type UnitTime, unitTime } from "./asked-time.js";
import { Bm25Index } from "./bm25.js";
import type { Scored } from "./fusion.js";
import { VectorMatrix } from "./vector-matrix.js";

export class MemoryIndex {
  readonly memories: Memory[];
  private readonly lexical = new Bm25Index();
  private readonly matrix: VectorMatrix;
  /** Memories joined by an edge of any type, in both directions (graph expansion). */
  private readonly linked: number[][];
  /** Turn id -> the memories made from it. */
  private readonly cites = new Map<string, number[]>();
  private times: UnitTime[] | null = null;
  /** The latest time any memory was observed: the scope's conversational present. */
  readonly latest: string;

  private constructor(memories: Memory[], vectors: Map<string, Float32Array>, dims: number, edges: Edge[]) {
    this.memories = memories;
    for (const m of memories) this.lexical.add(m.id, m.text);
    this.matrix = new VectorMatrix(memories.length, dims);
    memories.forEach((m, doc) => {
      const v = vectors.get(m.id);
      if (v) this.matrix.set(doc, v);
    });
    const position = new Map(memories.map((m, doc) => [m.id, doc]));
    this.linked = memories.map(() => []);
    for (const e of edges) {
      const a = position.get(e.from);
      const b = position.get(e.to);
      if (a === undefined || b === undefined || a === b) continue;
      this.linked[a]!.push(b);
      this.linked[b]!.push(a);
    }
    this.latest =
      memories
        .map((m) => m.observedAt)
        .sort()
        .at(-1) ?? "";
    for (const [doc, m] of memories.entries())
      for (const t of m.sourceTurns) {
        const docs = this.cites.get(t);
        if (docs) docs.push(doc);
        else this.cites.set(t, [doc]);
      }
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
    if (options.vectors === false) return new MemoryIndex(memories, new Map(), 0, edges);
    const vectors = await store.getEmbeddings(
      scope,
      "memory",
      memories.map((m) => m.id),
      model,
    );
    const width = dims || vectors.values().next().value?.length || 0;
    return new MemoryIndex(memories, vectors, width, edges);
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
    this.times ??= this.memories.map((m) => unitTime(m.text, m.observedAt));
    return this.times[doc]!;
  }

  private scale: ((t: number) => number) | null = null;

  /** How recently a memory was observed: 0 for the scope's oldest, 1 for its newest. */
  recency(doc: number): number {
    this.scale ??= recencyScale(this.memories.map((m) => Date.parse(m.observedAt)));
    return this.scale(Date.parse(this.memories[doc]!.observedAt));
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

  /** BM25 scores of the admitted memories that share a term with the query, by position. */
  bm25(query: string, admitted: Uint8Array): Map<number, number> {
    return this.lexical.scores(query, admitted);
  }

  /** The `k` admitted memories most similar to a unit query vector. */
  dense(query: Float32Array, admitted: Uint8Array, k: number): Scored[] {
    return this.matrix.nearest(query, k, admitted);
  }
}
