/**
 * Search over raw turns (a retrieval unit of its own, beside memories). The index — BM25 over
 * turn text and the turns' stored vectors — is built once per scope and reused across queries.
 * Rankers: `bm25` and `dense` alone, `rrf` (reciprocal rank fusion of the two) and `hybrid`
 * (normalised score fusion with speaker and neighbouring-turn evidence; see hybridScore).
 */
import type { RecallHit } from "../core/recall.js";
import { escapeRegExp } from "../core/text.js";
import type { Scope, Turn } from "../core/types.js";
import { dot } from "../core/vector.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import { Bm25Index } from "./bm25.js";

export type TurnRanker = "bm25" | "dense" | "rrf" | "hybrid";
export const TURN_RANKERS: TurnRanker[] = ["bm25", "dense", "rrf", "hybrid"];

/**
 * Weights of the hybrid score, chosen by a grid search on locomo-dev, turn units, categories 1-4
 * (recall@10 0.767, @25 0.875; see `memlane eval recall`).
 */
export const HYBRID_WEIGHTS = { dense: 0.75, bm25: 1, speaker: 0.3, neighbour: 0.65 };

export class TurnIndex {
  private readonly speakers: string[];

  private constructor(
    readonly turns: Turn[],
    private readonly vectors: (Float32Array | undefined)[],
    private readonly bm25: Bm25Index,
    private readonly embedder: Embedder,
  ) {
    this.speakers = [...new Set(turns.map((t) => t.speaker))];
  }

  /** The speakers a question names (for the speaker signal). */
  named(query: string): string[] {
    return this.speakers.filter((s) => new RegExp(`\\b${escapeRegExp(s)}\\b`, "i").test(query));
  }

  /** Reads a scope's turns and their stored vectors (embedding any that are missing). */
  static async build(store: MemoryStore, scope: Scope, embedder: Embedder): Promise<TurnIndex> {
    const turns = await store.listTurns(scope);
    const stored = await store.getEmbeddings(
      scope,
      "turn",
      turns.map((t) => t.id),
      embedder.name,
    );
    const missing = turns.filter((t) => !stored.has(t.id));
    const fresh = await embedder.embed(missing.map((t) => t.text));
    for (const [i, t] of missing.entries()) stored.set(t.id, fresh[i]!);
    const bm25 = new Bm25Index();
    for (const t of turns) bm25.add(t.id, t.text);
    return new TurnIndex(
      turns,
      turns.map((t) => stored.get(t.id)),
      bm25,
      embedder,
    );
  }

  async search(
    query: string,
    options: { k: number; ranker?: TurnRanker; speakers?: string[] },
  ): Promise<RecallHit[]> {
    const ranker = options.ranker ?? "hybrid";
    if (!query.trim() || this.turns.length === 0) return [];
    const [qv] = await this.embedder.embed([query]);
    const dense = this.vectors.map((v) => (v ? dot(qv!, v) : 0));
    const lexical = new Float64Array(this.turns.length);
    // For the hybrid, the speakers' names leave the lexical query: they match every greeting that
    // names someone ("Hey Caroline!"), and the speaker signal already carries them.
    const lexicalQuery = ranker === "hybrid" ? withoutNames(query, this.speakers) : query;
    // Documents were added in turn order, so a document's number is the turn's position.
    for (const [doc, score] of this.bm25.scores(lexicalQuery)) lexical[doc] = score;
    const scores = this.score(ranker, dense, lexical, options.speakers ?? []);
    const order = [...scores.keys()].sort((a, b) => scores[b]!.total - scores[a]!.total).slice(0, options.k);
    return order.map((i) => {
      const t = this.turns[i]!;
      return {
        kind: "turn",
        id: t.id,
        text: t.text,
        about: t.speaker,
        score: scores[i]!.total,
        observedAt: t.at,
        sessionId: t.sessionId,
        sourceTurns: [t.id],
        explanation: scores[i]!.parts,
        turn: t,
      };
    });
  }

  private score(
    ranker: TurnRanker,
    dense: number[],
    lexical: Float64Array,
    speakers: string[],
  ): { total: number; parts: Record<string, number> }[] {
    const n = this.turns.length;
    const round = (x: number) => Number(x.toFixed(4));
    if (ranker === "dense") return dense.map((d) => ({ total: d, parts: { dense: round(d) } }));
    if (ranker === "bm25") return [...lexical].map((b) => ({ total: b, parts: { bm25: round(b) } }));
    if (ranker === "rrf") {
      const rank = (xs: ArrayLike<number>) => {
        const idx = [...Array(n).keys()].sort((a, b) => xs[b]! - xs[a]!);
        const r = new Array<number>(n);
        for (const [pos, i] of idx.entries()) r[i] = pos;
        return r;
      };
      const rd = rank(dense);
      const rb = rank(lexical);
      return dense.map((_, i) => ({
        total: 1 / (61 + rd[i]!) + (lexical[i]! > 0 ? 1 / (61 + rb[i]!) : 0),
        parts: { dense: round(dense[i]!), bm25: round(lexical[i]!) },
      }));
    }
    return hybridScore(this.turns, dense, lexical, speakers);
  }
}

/**
 * Hybrid: each signal is scaled by its best value for this query (so neither dominates by units),
 * summed, plus a bonus when the turn's speaker is named in the question, plus a share of the
 * best neighbouring turn's score in the same session (answers often sit next to the question
 * that prompted them).
 */
export function hybridScore(
  turns: Turn[],
  dense: number[],
  lexical: Float64Array,
  speakers: string[],
): { total: number; parts: Record<string, number> }[] {
  const w = HYBRID_WEIGHTS;
  const maxDense = Math.max(1e-9, ...dense);
  let maxLex = 1e-9;
  for (const x of lexical) if (x > maxLex) maxLex = x;
  const base = dense.map((d, i) => w.dense * (d / maxDense) + w.bm25 * (lexical[i]! / maxLex));
  const wanted = new Set(speakers.map((s) => s.toLowerCase()));
  return base.map((b, i) => {
    const t = turns[i]!;
    const speaker = wanted.has(t.speaker.toLowerCase()) ? w.speaker : 0;
    const near = [i - 1, i + 1].filter((j) => turns[j]?.sessionId === t.sessionId).map((j) => base[j]!);
    const neighbour = near.length ? w.neighbour * Math.max(...near) : 0;
    const total = b + speaker + neighbour;
    return {
      total,
      parts: {
        dense: Number(dense[i]!.toFixed(4)),
        bm25: Number(lexical[i]!.toFixed(4)),
        speaker,
        neighbour: Number(neighbour.toFixed(4)),
        hybrid: Number(total.toFixed(4)),
      },
    };
  });
}

function withoutNames(query: string, names: string[]): string {
  let out = query;
  for (const n of names) out = out.replace(new RegExp(`\\b${escapeRegExp(n)}('s)?\\b`, "gi"), " ");
  return out;
}
