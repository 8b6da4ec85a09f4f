/**
 * The hybrid retriever over a store that searches vectors in its database (the Postgres store
 * with pgvector: an HNSW index, k-NN in SQL). Only the dense signal moves: the scope's index
 * still holds the memories for BM25, subjects, times, recency, source turns and edges, fused as
 * ever with every hit's per-signal scores, but no vectors; the dense candidates come from the
 * store's `searchMemories`. Over a store without a vector index it is the in-process retriever.
 */
import type { MemoryFilter, Scope } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { Scored } from "./fusion.js";
import { InProcessRetriever, type MemoryFusion, type RetrieverOptions } from "./in-process-retriever.js";
import { MemoryIndex } from "./memory-index.js";

export class PgvectorRetriever extends InProcessRetriever {
  private inDatabase: Promise<boolean> | null = null;
  constructor(store: MemoryStore, embedder: Embedder, options: MemoryFusion | RetrieverOptions = {}) {
    super(store, embedder, options);
  }

  /** Whether the store searches in its database; asked once (a failed answer is asked again). */
  private usesDatabase(): Promise<boolean> {
    if (!this.inDatabase) {
      this.inDatabase = this.store.searchesInDatabase?.() ?? Promise.resolve(false);
      this.inDatabase.catch(() => {
        this.inDatabase = null;
      });
    }
    return this.inDatabase;
  }

  protected override async buildIndex(scope: Scope): Promise<MemoryIndex> {
    const vectors = !(await this.usesDatabase());
    return MemoryIndex.build(this.store, scope, this.embedder.name, this.embedder.dimensions, { vectors });
  }

  protected override async denseSearch(
    scope: Scope,
    index: MemoryIndex,
    vector: Float32Array,
    admitted: Uint8Array,
    filter: MemoryFilter | undefined,
    k: number,
  ): Promise<Scored[]> {
    if (!(await this.usesDatabase())) return super.denseSearch(scope, index, vector, admitted, filter, k);
    const hits = await this.store.searchMemories(scope, vector, this.embedder.name, k, filter);
    // A memory committed after the index caught up is not in it yet: the next search brings it.
    const dense: Scored[] = [];
    for (const h of hits) {
      const doc = index.docOf(h.id);
      if (doc !== undefined && admitted[doc]) dense.push({ doc, score: h.score });
    }
    return dense;
  }
}
