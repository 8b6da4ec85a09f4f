/**
 * Hybrid recall over one scope: dense similarity from the configured embedder and BM25 over the
 * memory text, fused by reciprocal rank. Every hit says what each signal scored.
 */
import type { RecallHit } from "../core/recall.js";
import type { Memory, MemoryFilter, Scope } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { Bm25Index } from "./bm25.js";

export interface MemorySearch {
  query: string;
  k: number;
  filter?: MemoryFilter;
}

/** RRF constant: 60 is the value of the original paper and the usual default. */
const RRF_K = 60;

export class Retriever {
  constructor(
    private readonly store: MemoryStore,
    private readonly embedder: Embedder,
  ) {}

  async searchMemories(scope: Scope, search: MemorySearch): Promise<RecallHit[]> {
    const query = search.query.trim();
    if (!query || search.k <= 0) return [];
    const depth = Math.max(search.k * 4, 20);
    const [vector] = await this.embedder.embed([query]);
    const dense = await this.store.searchMemories(scope, vector!, this.embedder.name, depth, search.filter);
    const candidates = await this.store.listMemories(scope, search.filter);
    const bm25 = new Bm25Index();
    for (const m of candidates) bm25.add(m.id, m.text);
    // A word found in almost every memory (the partner's name) scores near zero: not a lexical hit.
    const lexicalAll = bm25.search(query, depth);
    const lexical = lexicalAll.filter((h) => h.score >= 0.1 * (lexicalAll[0]?.score ?? 0) && h.score > 0.2);
    const byId = new Map<string, Memory>(candidates.map((m) => [m.id, m]));
    const fused = new Map<string, Record<string, number>>();
    const credit = (list: { id: string; score: number }[], signal: string) => {
      // Equal scores share a rank: an arbitrary order among ties must not earn fusion credit.
      let rank = 0;
      list.forEach((hit, i) => {
        if (i > 0 && hit.score < list[i - 1]!.score) rank = i;
        const e = fused.get(hit.id) ?? { rrf: 0 };
        e[signal] = Number(hit.score.toFixed(4));
        e.rrf! += 1 / (RRF_K + rank + 1);
        fused.set(hit.id, e);
      });
    };
    credit(dense, "dense");
    credit(lexical, "bm25");
    const hits: RecallHit[] = [];
    for (const [id, explanation] of fused) {
      const memory = byId.get(id);
      if (!memory) continue;
      explanation.rrf = Number(explanation.rrf!.toFixed(5));
      hits.push({
        kind: "memory",
        id,
        text: memory.text,
        about: memory.about,
        score: explanation.rrf,
        observedAt: memory.observedAt,
        sessionId: memory.sessionId,
        sourceTurns: memory.sourceTurns,
        explanation,
        memory,
      });
    }
    hits.sort((a, b) => b.score - a.score || (b.observedAt < a.observedAt ? -1 : 1));
    return hits.slice(0, search.k);
  }
}
