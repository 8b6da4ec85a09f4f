/**
 * Hybrid recall over one scope's memories: dense similarity from the configured embedder and
 * BM25 over the memory text, fused by reciprocal rank (ties share a rank; near-zero lexical
 * matches, such as a partner's name found in every memory, earn nothing). Every hit says what
 * each signal scored. The per-scope MemoryIndex is cached and rebuilt when the store changes.
 */
import type { RecallHit } from "../core/recall.js";
import { escapeRegExp } from "../core/text.js";
import type { Memory, MemoryFilter, Scope } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { MemoryIndex } from "./memory-index.js";

export interface MemorySearch {
  query: string;
  k: number;
  filter?: MemoryFilter;
}

/**
 * How the two signals are fused: `scaled` (each scaled by its best value for the query, summed
 * with the weights below, plus a bonus when the question names the memory's subject) or plain
 * reciprocal rank fusion.
 */
export type MemoryFusion = "scaled" | "rrf";

export const MEMORY_WEIGHTS = { dense: 0.75, bm25: 1, about: 0.3 };

/** RRF constant: 60 is the value of the original paper and the usual default. */
const RRF_K = 60;

export class Retriever {
  private readonly indexes = new Map<string, { version: string; index: Promise<MemoryIndex> }>();

  constructor(
    private readonly store: MemoryStore,
    private readonly embedder: Embedder,
    private readonly fusion: MemoryFusion = "scaled",
  ) {}

  /** The scope's index, rebuilt only when something was committed since it was built. */
  async index(scope: Scope): Promise<MemoryIndex> {
    const key = `${scope.tenant}\u0000${scope.agent}`;
    const version = await this.store.changeVersion();
    const cached = this.indexes.get(key);
    if (cached && cached.version === version) return cached.index;
    const index = MemoryIndex.build(this.store, scope, this.embedder.name, this.embedder.dimensions);
    this.indexes.set(key, { version, index });
    index.catch(() => this.indexes.delete(key));
    return index;
  }

  async searchMemories(scope: Scope, search: MemorySearch): Promise<RecallHit[]> {
    const query = search.query.trim();
    if (!query || search.k <= 0) return [];
    const depth = Math.max(search.k * 4, 20);
    const [[vector], index] = await Promise.all([this.embedder.embed([query]), this.index(scope)]);
    const admitted = index.admitted(search.filter);
    const dense = index.dense(vector!, admitted, depth);
    const lexicalAll = [...index.bm25(query, admitted)]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score);
    // A word found in almost every memory (the partner's name) scores near zero: not a lexical hit.
    const lexical = lexicalAll
      .filter((h) => h.score >= 0.1 * (lexicalAll[0]?.score ?? 0) && h.score > 0.2)
      .slice(0, depth);
    const fused = this.fusion === "rrf" ? rrf(dense, lexical) : scaled(dense, lexical, index.memories, query);
    const hits: RecallHit[] = [...fused].map(([doc, explanation]) => {
      const memory = index.memories[doc]!;
      return {
        kind: "memory",
        id: memory.id,
        text: memory.text,
        about: memory.about,
        score: explanation.score!,
        observedAt: memory.observedAt,
        sessionId: memory.sessionId,
        sourceTurns: memory.sourceTurns,
        explanation,
        memory,
      };
    });
    hits.sort((a, b) => b.score - a.score || (b.observedAt < a.observedAt ? -1 : 1));
    return hits.slice(0, search.k);
  }
}

type Scored = { doc: number; score: number }[];

function rrf(dense: Scored, lexical: Scored): Map<number, Record<string, number>> {
  const fused = new Map<number, Record<string, number>>();
  const credit = (list: { doc: number; score: number }[], signal: string) => {
    // Equal scores share a rank: an arbitrary order among ties must not earn fusion credit.
    let rank = 0;
    list.forEach((hit, i) => {
      if (i > 0 && hit.score < list[i - 1]!.score) rank = i;
      const e = fused.get(hit.doc) ?? { rrf: 0 };
      e[signal] = Number(hit.score.toFixed(4));
      e.rrf! += 1 / (RRF_K + rank + 1);
      fused.set(hit.doc, e);
    });
  };
  credit(dense, "dense");
  credit(lexical, "bm25");
  for (const e of fused.values()) e.score = e.rrf = Number(e.rrf!.toFixed(5));
  return fused;
}

function scaled(
  dense: Scored,
  lexical: Scored,
  memories: Memory[],
  query: string,
): Map<number, Record<string, number>> {
  const w = MEMORY_WEIGHTS;
  const maxDense = Math.max(1e-9, ...dense.map((d) => d.score));
  const maxLex = Math.max(1e-9, ...lexical.map((d) => d.score));
  const fused = new Map<number, Record<string, number>>();
  for (const d of dense)
    fused.set(d.doc, {
      dense: Number(d.score.toFixed(4)),
      score: w.dense * (Math.max(0, d.score) / maxDense),
    });
  for (const l of lexical) {
    const e = fused.get(l.doc) ?? { score: 0 };
    e.bm25 = Number(l.score.toFixed(4));
    e.score! += w.bm25 * (l.score / maxLex);
    fused.set(l.doc, e);
  }
  const q = query.toLowerCase();
  for (const [doc, e] of fused) {
    const about = memories[doc]!.about.toLowerCase();
    if (about.length > 1 && new RegExp(`\\b${escapeRegExp(about)}\\b`).test(q)) {
      e.about = w.about;
      e.score! += w.about;
    }
    e.score = Number(e.score!.toFixed(5));
  }
  return fused;
}
