/**
 * Hybrid recall over one scope's memories: dense similarity from the configured embedder, BM25
 * over the memory text (near-zero lexical matches, such as a partner's name found in every
 * memory, earn nothing), the scores of the memory's source turns in the turn search, the
 * memory's subject named in the question, the time the question asks about, recency for
 * questions about the present, and (when asked for) memories linked by edges — fused as
 * fusion.ts says. Every hit says what each signal scored. The per-scope memory and turn indexes
 * are kept live from the store's change log, under a byte budget (index-cache.ts).
 */

import { byStoreOrder } from "../core/memory-order.js";
import { memoryHit, type RecallHit } from "../core/recall.js";
import { namePattern } from "../core/text.js";
import type { MemoryFilter, Scope } from "../core/types.js";
import { cosine, normalize } from "../core/vector.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { askedRanges, asksAboutNow, withinAsked } from "./asked-time.js";
import {
  type Explanation,
  FUSION_WEIGHTS,
  type FusionWeights,
  fuseRrf,
  fuseScaled,
  MEMORY_WEIGHTS,
  perValue,
  type Scored,
} from "./fusion.js";
import { IndexBudget, IndexCache } from "./index-cache.js";
import { MemoryIndex } from "./memory-index.js";
import type { MemorySearch, NearMemories, NearMemory, Retriever } from "./retriever.js";
import { TurnIndex, type TurnSearch } from "./turn-search.js";

/**
 * How the signals are fused: `scaled` (fusion.ts's fuseScaled: scaled dense + BM25, subject and
 * asked-time and recency bonuses, graph expansion through edges) or plain reciprocal rank fusion (`rrf`).
 */
export type MemoryFusion = "scaled" | "rrf";

/** Rows read past `k` by `nearestMemories`, so that near-equal scores at the cut are all seen. */
const NEAR_SLACK = 8;

/**
 * How far apart a float32 scan's score and the double-precision cosine can be, with room to
 * spare: a few hundred float32 roundings of a unit-length dot product.
 */
const NEAR_MARGIN = 1e-4;

/**
 * Turn candidates per ranker when memories are scored through their source turns: 100, 200 and
 * 1000 gave the same memory recall on locomo-dev (R@10 0.551), and fewer is faster.
 */
const SOURCE_DEPTH = 100;

/**
 * The turn search behind the source signal: the turn ranker's weights without the turn's shape. A
 * memory is a statement whatever its turn looked like: a request that ends in "?" ("can you help
 * me plan the trip to Porto?") still yields "Sam is planning a trip to Porto", and with the shape
 * priors MT-Bench+'s memories (users' requests) lost recall (theanine test option F1 0.520 -> 0.493).
 */
const SOURCE_TURN_WEIGHTS: FusionWeights = { ...FUSION_WEIGHTS, question: 0, length: 0 };

/** How an in-process retriever keeps its indexes. */
export interface RetrieverOptions {
  /** Fusion of the memory signals (default "scaled"). */
  fusion?: MemoryFusion;
  /**
   * The byte budget of the scope indexes, shared with other retrievers when an `IndexBudget` is
   * passed (default: DEFAULT_INDEX_BUDGET, 1 GiB, for this retriever alone).
   */
  budget?: number | IndexBudget;
  /**
   * Which scopes are this process's own (a replica's share, core/replica-share.ts): the others'
   * indexes leave the budget first. Default: every scope. Ignored when an `IndexBudget` is passed.
   */
  home?: (scope: Scope) => boolean;
  /** Told when a held index is built again instead of updated (the store's change log could not serve it). */
  onRebuild?: (scope: Scope, kind: string, reason: string) => void;
}

/** The default Retriever: exact hybrid search over per-scope indexes kept live in this process. */
export class InProcessRetriever implements Retriever {
  readonly specificationVersion = "v1" as const;
  private readonly fusion: MemoryFusion;
  /** The scope indexes' byte budget (its `used` and `count` say what is held). */
  readonly budget: IndexBudget;
  private readonly memoryIndexes: IndexCache<MemoryIndex>;
  private readonly turnIndexes: IndexCache<TurnIndex>;

  constructor(
    protected readonly store: MemoryStore,
    protected readonly embedder: Embedder,
    options: MemoryFusion | RetrieverOptions = {},
  ) {
    const o = typeof options === "string" ? { fusion: options } : options;
    this.fusion = o.fusion ?? "scaled";
    this.budget = o.budget instanceof IndexBudget ? o.budget : new IndexBudget(o.budget, o.home);
    this.memoryIndexes = new IndexCache(store, {
      kind: "memories",
      budget: this.budget,
      onRebuild: o.onRebuild,
      build: (scope) => this.buildIndex(scope),
      update: (index, scope, changes) => index.update(store, scope, embedder.name, changes),
    });
    this.turnIndexes = new IndexCache(store, {
      kind: "turns",
      budget: this.budget,
      onRebuild: o.onRebuild,
      build: (scope) => TurnIndex.build(store, scope, embedder),
      update: (index, scope, changes) => index.update(store, scope, changes),
    });
  }

  /** The scope's memory index, brought up to date with what was committed since it was last used. */
  index(scope: Scope): Promise<MemoryIndex> {
    return this.memoryIndexes.get(scope);
  }

  /** Builds a scope's memory index; a retriever whose dense search runs elsewhere skips the vectors. */
  protected buildIndex(scope: Scope): Promise<MemoryIndex> {
    return MemoryIndex.build(this.store, scope, this.embedder.name, this.embedder.dimensions);
  }

  /**
   * The dense signal: the `k` admitted memories nearest the query vector, exact over the index's
   * matrix. A retriever over a database with a vector index answers it there.
   */
  protected async denseSearch(
    _scope: Scope,
    index: MemoryIndex,
    vector: Float32Array,
    admitted: Uint8Array,
    _filter: MemoryFilter | undefined,
    k: number,
  ): Promise<Scored[]> {
    return index.dense(vector, admitted, k);
  }

  /** The scope's turn index, kept the same way. */
  turnIndex(scope: Scope): Promise<TurnIndex> {
    return this.turnIndexes.get(scope);
  }

  /** Raw turns as the retrieval unit: the hybrid turn ranker (or a baseline ranker). */
  async searchTurns(scope: Scope, search: TurnSearch & { query: string }): Promise<RecallHit[]> {
    if (!search.query.trim() || search.k <= 0) return [];
    return (await this.turnIndex(scope)).search(search.query, search);
  }

  /**
   * Memories scored through their source turns: the turn search ranks what was said, and each
   * admitted memory made from a found turn takes the best score among its turns.
   */
  private async sourceEvidence(
    turnIndex: TurnIndex,
    index: MemoryIndex,
    admitted: Uint8Array,
    search: MemorySearch,
    vector: Float32Array,
    depth: number,
  ): Promise<Scored[]> {
    const turns = await turnIndex.search(search.query, {
      vector,
      k: depth * 2,
      depth: SOURCE_DEPTH,
      now: search.now,
      weights: SOURCE_TURN_WEIGHTS,
    });
    const best = new Map<number, number>();
    for (const t of turns)
      for (const doc of index.citing(t.id))
        if (admitted[doc] && t.score > (best.get(doc) ?? Number.NEGATIVE_INFINITY)) best.set(doc, t.score);
    return [...best].map(([doc, score]) => ({ doc, score }));
  }

  /**
   * Nearest memories by meaning, from the scope's live index: the dense search recall uses
   * (exact over the index's vectors here; in the database for a retriever that searches there),
   * so a session end reads no vectors from the store and sorts nothing the size of the scope.
   * The scan sums in float32 and cuts equal scores by document number, so it is read deeper than
   * `k` until its last score is clear of the k-th, and what it found is scored again as
   * `core/vector.ts`'s `cosine` scores it, equal scores in the store's order: the answer is the
   * one ranking every listed memory would give. Memories the index holds no vector for are
   * embedded for this call and compared too.
   */
  async nearestMemories(
    scope: Scope,
    vectors: Float32Array[],
    k: number,
    filter?: MemoryFilter,
  ): Promise<NearMemories> {
    const index = await this.index(scope);
    const admitted = index.admitted(filter);
    let among = 0;
    for (let doc = 0; doc < index.memories.length; doc++) among += admitted[doc]!;
    if (k <= 0 || vectors.length === 0 || among === 0) return { lists: vectors.map(() => []), among };
    const unvectored = index.withoutVector(admitted);
    const extra = unvectored.length
      ? await this.embedder.embed(unvectored.map((d) => index.memories[d]!.text))
      : [];
    const skip = new Set(unvectored);
    const lists: NearMemory[][] = [];
    for (const vector of vectors) {
      const unit = normalize(Float32Array.from(vector));
      let depth = k + unvectored.length + NEAR_SLACK;
      let found: Scored[];
      for (;;) {
        found = await this.denseSearch(scope, index, unit, admitted, filter, depth);
        if (found.length < depth || found[depth - 1]!.score < found[k - 1]!.score - NEAR_MARGIN) break;
        depth *= 4;
      }
      const scored = found
        .filter((s) => !skip.has(s.doc))
        .map((s) => ({ doc: s.doc, score: index.cosine(s.doc, vector) ?? s.score }));
      for (const [i, doc] of unvectored.entries()) scored.push({ doc, score: cosine(vector, extra[i]!) });
      const memory = (doc: number) => index.memories[doc]!;
      scored.sort((a, b) => b.score - a.score || byStoreOrder(memory(a.doc), memory(b.doc)));
      lists.push(scored.slice(0, k).map((s) => ({ memory: memory(s.doc), score: s.score })));
    }
    return { lists, among };
  }

  async searchMemories(scope: Scope, search: MemorySearch): Promise<RecallHit[]> {
    const query = search.query.trim();
    if (!query || search.k <= 0) return [];
    const depth = Math.max(search.k * 4, 20);
    const weights = search.weights ?? MEMORY_WEIGHTS;
    const useSource = this.fusion !== "rrf" && weights.source > 0;
    // Both indexes are brought up to date before the dense search starts: on a store with one
    // connection (PGlite) a version check queued behind it would wait for it.
    const [[vector], index, turnIndex] = await Promise.all([
      this.embedder.embed([query]),
      this.index(scope),
      useSource ? this.turnIndex(scope) : undefined,
    ]);
    const admitted = index.admitted(search.filter);
    // No memory can answer: skip the searches (the source search alone reads every turn's index).
    if (admitted.indexOf(1) === -1) return [];
    // Started first and awaited last: where the dense search runs in a database (another thread or
    // machine), BM25 and the source turns are scored here meanwhile.
    const searching = this.denseSearch(scope, index, vector!, admitted, search.filter, depth);
    searching.catch(() => {}); // awaited below; a failure there is the search's
    // A word found in almost every memory (the partner's name) scores near zero: not a lexical hit.
    const lexical = index.bm25Top(query, admitted, depth, (best) => Math.max(0.1 * best, 0.2 + 1e-12));
    let fused: Map<number, Explanation>;
    if (this.fusion === "rrf") fused = fuseRrf({ dense: await searching, lexical });
    else {
      const source = turnIndex
        ? await this.sourceEvidence(turnIndex, index, admitted, search, vector!, depth)
        : [];
      const dense = await searching;
      const asked = askedRanges(query, search.now ?? index.latest);
      fused = fuseScaled(
        {
          dense,
          lexical,
          subject: perValue(
            (doc) => index.memories[doc]!.about,
            (about) => {
              const lower = about.toLowerCase();
              return lower.length > 1 && namePattern(lower).test(query);
            },
          ),
          time: asked.length ? (doc) => withinAsked(index.time(doc), asked) : undefined,
          recency: asksAboutNow(query) ? (doc) => index.recency(doc) : undefined,
          neighbours: (doc) => index.neighbours(doc).filter((n) => admitted[n]),
          source,
        },
        weights,
      );
    }
    // Best first; among equals, the newer memory.
    const at = (doc: number) => index.memories[doc]!.observedAt;
    return [...fused]
      .sort(([da, a], [db, b]) => b.score! - a.score! || (at(db) < at(da) ? -1 : 1))
      .slice(0, search.k)
      .map(([doc, explanation]) => memoryHit(index.memories[doc]!, explanation));
  }
}
