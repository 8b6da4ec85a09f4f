/**
 * Search over raw turns (a retrieval unit of its own, beside memories). The index — BM25 over
 * turn text and the turns' stored vectors — is built once per scope and reused across queries.
 * Rankers: `bm25` and `dense` alone, `rrf` (reciprocal rank fusion of the two) and `hybrid`
 * (fusion.ts's scaled fusion with the speaker, asked-time, recency and neighbouring-turn signals).
 */
import { type RecallHit, turnHit } from "../core/recall.js";
import { namePattern } from "../core/text.js";
import type { Scope, Turn } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore } from "../store/memory-store.js";
import {
  askedRanges,
  asksAboutNow,
  asksWhen,
  recencyScale,
  type UnitTime,
  unitTime,
  withinAsked,
} from "./asked-time.js";
import { Bm25Index } from "./bm25.js";
import { type Explanation, type FusionWeights, fuseRrf, fuseScaled } from "./fusion.js";
import { TopK } from "./top-k.js";
import { turnVectors } from "./turn-embedding-text.js";
import { VectorMatrix } from "./vector-matrix.js";

export type TurnRanker = "bm25" | "dense" | "rrf" | "hybrid";
export const TURN_RANKERS: TurnRanker[] = ["bm25", "dense", "rrf", "hybrid"];

export interface TurnSearch {
  k: number;
  ranker?: TurnRanker;
  /** Speakers the question names (default: found in the query by `named`). */
  speakers?: string[];
  /** The conversation's present, for "last month" (default: the latest turn's time). */
  now?: string;
  /** Only turns this speaker said. */
  speaker?: string;
  /** The query's vector, when the caller has it already (else the query is embedded). */
  vector?: Float32Array;
  /** Candidates per ranker (default: at least 1000, see DEPTH); fewer is faster and rougher. */
  depth?: number;
  /** Fusion weights for the hybrid (default FUSION_WEIGHTS; for tuning). */
  weights?: FusionWeights;
}

/**
 * Candidates per ranker and query, at least. The subject and time bonuses can lift a turn that is
 * far down either list, so the cut is deep (a whole LoCoMo conversation, 400-700 turns, fits).
 */
const DEPTH = 1000;

export class TurnIndex {
  private readonly speakers: string[];
  private readonly times: UnitTime[];
  private readonly recency: (t: number) => number;
  private readonly latest: string;

  private constructor(
    readonly turns: Turn[],
    private readonly vectors: VectorMatrix,
    private readonly bm25: Bm25Index,
    private readonly embedder: Embedder,
  ) {
    this.speakers = [...new Set(turns.map((t) => t.speaker))];
    this.times = turns.map((t) => unitTime(t.text, t.at));
    this.recency = recencyScale(this.times.map((t) => t.said));
    this.latest =
      turns
        .map((t) => t.at)
        .sort()
        .at(-1) ?? "";
  }

  /** The speakers a question names (for the subject signal). */
  named(query: string): string[] {
    return this.speakers.filter((s) => namePattern(s).test(query));
  }

  /**
   * Reads a scope's turns and their stored vectors. Turns without one (written by an older
   * memlane, or embedded by another model) are embedded for this index only: a read never writes.
   * `memlane reindex` (Memlane.reindex) stores them, so the next build does not embed them again.
   */
  static async build(store: MemoryStore, scope: Scope, embedder: Embedder): Promise<TurnIndex> {
    const turns = await store.listTurns(scope);
    const { vectors: stored } = await turnVectors(store, scope, embedder, turns);
    const bm25 = new Bm25Index();
    for (const t of turns) bm25.add(t.id, t.text);
    const dims = embedder.dimensions || stored.values().next().value?.length || 0;
    const matrix = new VectorMatrix(turns.length, dims);
    turns.forEach((t, doc) => {
      const v = stored.get(t.id);
      if (v) matrix.set(doc, v);
    });
    return new TurnIndex(turns, matrix, bm25, embedder);
  }

  async search(query: string, options: TurnSearch): Promise<RecallHit[]> {
    const ranker = options.ranker ?? "hybrid";
    if (!query.trim() || this.turns.length === 0 || options.k <= 0) return [];
    const qv = options.vector ?? (await this.embedder.embed([query]))[0];
    // Dense candidates: the nearest turns, deep enough that the fusion's best sit above the cut.
    const depth = Math.max(options.k, options.depth ?? Math.max(options.k * 8, DEPTH));
    // A ranker alone needs only k of its own, unless a speaker filter will thin them out.
    const cut = (alone: boolean) => (alone && !options.speaker ? options.k : depth);
    const dense = this.vectors.nearest(qv!, cut(ranker === "dense"));
    // For the hybrid, the speakers' names leave the lexical query: they match every greeting that
    // names someone ("Hey Caroline!"), and the subject signal already carries them.
    const lexicalQuery = ranker === "hybrid" ? withoutNames(query, this.speakers) : query;
    // Documents were added in turn order, so a document's number is the turn's position.
    // The lexical candidates: every match, best first, as deep as the dense ones.
    const lexical = TopK.of(this.bm25.scores(lexicalQuery), cut(ranker === "bm25"));
    let fused: Map<number, Explanation>;
    if (ranker === "dense") fused = new Map(dense.map((d) => [d.doc, { dense: d.score, score: d.score }]));
    else if (ranker === "bm25")
      fused = new Map(lexical.map((l) => [l.doc, { bm25: l.score, score: l.score }]));
    else if (ranker === "rrf") fused = fuseRrf({ dense, lexical });
    else {
      const speakers = new Set((options.speakers ?? this.named(query)).map((s) => s.toLowerCase()));
      const asked = askedRanges(query, options.now ?? this.latest);
      const sameSession = (a: number, b: number) => this.turns[b]?.sessionId === this.turns[a]!.sessionId;
      // The candidates' neighbours are scored too, so what a candidate earns from them is exact.
      const scored = new Uint8Array(this.turns.length);
      for (const d of dense) scored[d.doc] = 1;
      const candidates = [...dense.map((d) => d.doc), ...lexical.map((l) => l.doc)];
      for (const doc of candidates)
        for (const n of [doc - 1, doc + 1])
          if (!scored[n] && sameSession(doc, n)) {
            scored[n] = 1;
            dense.push({ doc: n, score: this.vectors.similarity(n, qv!) });
          }
      fused = fuseScaled(
        {
          dense,
          lexical,
          subject: (doc) => speakers.has(this.turns[doc]!.speaker.toLowerCase()),
          time: asked.length ? (doc) => withinAsked(this.times[doc]!, asked) : undefined,
          dated: asksWhen(query) ? (doc) => this.times[doc]!.dated : undefined,
          recency: asksAboutNow(query) ? (doc) => this.recency(this.times[doc]!.said) : undefined,
          neighbours: (doc) => [doc - 1, doc + 1].filter((n) => sameSession(doc, n)),
        },
        options.weights,
      );
    }
    const only = options.speaker?.toLowerCase();
    const scores = new Map<number, number>();
    for (const [doc, e] of fused)
      if (only === undefined || this.turns[doc]!.speaker.toLowerCase() === only) scores.set(doc, e.score!);
    return TopK.of(scores, options.k).map(({ doc }) => turnHit(this.turns[doc]!, fused.get(doc)!));
  }
}

function withoutNames(query: string, names: string[]): string {
  let out = query;
  for (const n of names) out = out.replace(namePattern(n, "gi"), " ");
  return out;
}
