/**
 * Search over raw turns (a retrieval unit of its own, beside memories). The index — BM25 over
 * turn text and the turns' stored vectors — is built once per scope and reused across queries.
 * Rankers: `bm25` and `dense` alone, `rrf` (reciprocal rank fusion of the two) and `hybrid`
 * (fusion.ts's scaled fusion with the speaker, asked-time, recency and neighbouring-turn signals).
 */

import { turnHearingTest } from "../core/audience.js";
import { type RecallHit, turnHit } from "../core/recall.js";
import { namePattern } from "../core/text.js";
import type { Hearing, Scope, Turn } from "../core/types.js";
import { breathe, mapInSlices } from "../core/yield-to-loop.js";
import type { Embedder } from "../models/embedder.js";
import type { MemoryStore, ScopeChanges } from "../store/memory-store.js";
import {
  askedRanges,
  asksAboutNow,
  asksWhen,
  DayScale,
  type UnitTime,
  unitTime,
  withinAsked,
} from "./asked-time.js";
import { Bm25Index } from "./bm25.js";
import {
  type Explanation,
  FUSION_WEIGHTS,
  type FusionInput,
  type FusionWeights,
  fuseRrf,
  fuseScaled,
  topScaled,
} from "./fusion.js";
import { TopK } from "./top-k.js";
import { type Passage, passagesOf, turnVectors } from "./turn-embedding-text.js";
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
  /**
   * Only turns this hearing may hear (core/audience.ts): under partner scope, turns of the
   * sessions its partners were in; a private turn (`isPrivate`) only for its speaker.
   */
  hearing?: Hearing;
  /** Whether a turn is private by itself (the offline detector); default: none is. */
  isPrivate?: (turn: Turn) => boolean;
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
  /**
   * Document number -> turn. A document is a turn, or one passage of a long turn (passagesOf);
   * a forgotten one stays in place, never found.
   */
  readonly turns: Turn[] = [];
  /** The scope version the index holds everything up to. */
  version = "0";
  /** Turn id -> its documents, in passage order. */
  private readonly position = new Map<string, number[]>();
  /** Document -> the passage it holds, when its turn has more than one. */
  private readonly spans: ((Passage & { index: number; of: number }) | undefined)[] = [];
  private readonly gone = new Set<number>();
  /** Documents ever added as one passage of a long turn (a turn is then found once, as its best passage). */
  private passages = 0;
  /** Characters of text held, as bytes (for the index budget). */
  private textBytes = 0;
  /** Which documents are held (1) or forgotten (0); passed to the dense scan once one is gone. */
  private live = new Uint8Array(16);
  /** Speakers by how many held documents they said, in the order first heard. */
  private readonly speakerCounts = new Map<string, number>();
  /** Session id -> its partners, for a hearing's partner scope (who heard the session's turns). */
  private readonly partners = new Map<string, string[]>();
  /** Every speaker ever added, numbered in the order first heard, and each document's speaker's number. */
  private readonly speakerNames: string[] = [];
  private readonly speakerNumbers = new Map<string, number>();
  private readonly speakerOf: number[] = [];
  /** When each document was said and what times its words mention, read on first use (parsing is costly). */
  private readonly times: (UnitTime | undefined)[] = [];
  /** Each document's shape, read when it is added: whether it asks a question, and its length. */
  private readonly asking: boolean[] = [];
  private readonly chars: number[] = [];
  private readonly days = new DayScale();
  private latest = "";
  /** Each session's documents in turn order: neighbours are the documents next to one there. */
  private readonly sessions = new Map<string, number[]>();
  private readonly prev: number[] = [];
  private readonly next: number[] = [];
  private readonly bm25 = new Bm25Index();
  private readonly vectors: VectorMatrix;

  private constructor(
    private readonly embedder: Embedder,
    private readonly dims: number,
  ) {
    this.vectors = new VectorMatrix(0, dims);
  }

  /** The speakers a question names (for the subject signal). */
  named(query: string): string[] {
    return [...this.speakerCounts.keys()].filter((s) => namePattern(s).test(query));
  }

  /**
   * Reads a scope's turns and their stored vectors. Turns without one (written by an older
   * memlane, or embedded by another model) are embedded for this index only: a read never writes.
   * `memlane reindex` (Memlane.reindex) stores them, so the next build does not embed them again.
   */
  static async build(store: MemoryStore, scope: Scope, embedder: Embedder): Promise<TurnIndex> {
    const turns = await store.listTurns(scope);
    const { vectors: stored } = await turnVectors(store, scope, embedder, turns);
    const dims = embedder.dimensions || stored.values().next().value?.length || 0;
    const index = new TurnIndex(embedder, dims);
    for (const s of await store.listSessions(scope)) index.partners.set(s.id, s.partners);
    await breathe();
    index.vectors.reserve(turns.length);
    // Checked after every turn, not every 64: one long turn is hundreds of passages, and 64
    // ordinary turns beside one held the loop too long (`npm run bench -- live --parts stalls`).
    // The check is one clock read until the slice is spent.
    await mapInSlices(turns, (t) => index.append(t, stored.get(t.id)));
    return index;
  }

  /**
   * Brings the index up to `changes` (read from the store's change log): reads the turns named
   * and their vectors, then applies them at once. Applying the same changes twice gives the same index.
   */
  async update(store: MemoryStore, scope: Scope, changes: ScopeChanges): Promise<void> {
    const ids = [...new Set([...changes.turns, ...changes.turnVectors])];
    const rows = ids.length ? await store.listTurns(scope, { ids }) : [];
    const found = new Map(rows.map((t) => [t.id, t]));
    const { vectors } = await turnVectors(store, scope, this.embedder, rows);
    // The sessions just spoken in are read again: a new one, or one someone joined.
    for (const id of new Set(rows.map((t) => t.sessionId))) {
      const session = await store.getSession(scope, id);
      if (session) this.partners.set(id, session.partners);
    }
    for (const id of ids) {
      const t = found.get(id);
      const docs = this.position.get(id);
      const held = docs && !this.gone.has(docs[0]!) ? docs : undefined;
      if (!t) {
        if (held) this.remove(held);
      } else if (!held) this.append(t, vectors.get(id));
      else if (this.turns[held[0]!]!.text !== t.text) {
        // New text may cut into other passages: the turn's documents are made anew.
        this.remove(held);
        this.append(t, vectors.get(id));
      } else this.revector(held, t, vectors.get(id));
    }
    this.version = changes.version;
  }

  private append(t: Turn, vector: Float32Array | undefined): void {
    const passages = passagesOf(t.text);
    if (passages.length > 1) this.passages += passages.length;
    const docs: number[] = [];
    const session = this.sessions.get(t.sessionId) ?? [];
    this.sessions.set(t.sessionId, session);
    // Turns arrive in order; one that does not is placed by its index in the session.
    let at = session.length;
    while (at > 0 && this.turns[session[at - 1]!]!.index > t.index) at--;
    for (const [i, p] of passages.entries()) {
      const doc = this.turns.length;
      docs.push(doc);
      this.turns.push(t);
      this.spans.push(passages.length > 1 ? { ...p, index: i, of: passages.length } : undefined);
      const text = this.textOf(doc);
      this.bm25.add(t.id, text);
      this.asking.push(ASKS.test(text));
      this.chars.push(text.length);
      this.vectors.append(this.passageVector(vector, i, passages.length));
      if (this.live.length <= doc) {
        const grown = new Uint8Array(this.live.length * 2);
        grown.set(this.live);
        this.live = grown;
      }
      this.live[doc] = 1;
      this.speakerCounts.set(t.speaker, (this.speakerCounts.get(t.speaker) ?? 0) + 1);
      this.speakerOf.push(this.speakerNumber(t.speaker));
      this.times.push(undefined);
      this.days.add(t.at);
      this.prev.push(-1);
      this.next.push(-1);
      session.splice(at + i, 0, doc);
    }
    this.textBytes += 2 * t.text.length;
    this.position.set(t.id, docs);
    if (t.at > this.latest) this.latest = t.at;
    for (let i = 0; i < docs.length; i++) this.link(session, at + i);
  }

  /** One passage's share of a turn's vector (a long turn's vector holds one per passage). */
  private passageVector(vector: Float32Array | undefined, i: number, of: number): Float32Array | undefined {
    if (!vector || of === 1 || !this.dims) return vector;
    return vector.length >= (i + 1) * this.dims
      ? vector.subarray(i * this.dims, (i + 1) * this.dims)
      : undefined;
  }

  /** The text a document holds: its turn's, or its passage of it. */
  private textOf(doc: number): string {
    const text = this.turns[doc]!.text;
    const span = this.spans[doc];
    return span ? text.slice(span.start, span.end) : text;
  }

  /** Sets the neighbours around position `at` of a session's list. */
  private link(session: number[], at: number): void {
    for (const i of [at - 1, at, at + 1]) {
      const doc = session[i];
      if (doc === undefined) continue;
      this.prev[doc] = session[i - 1] ?? -1;
      this.next[doc] = session[i + 1] ?? -1;
    }
  }

  /** Same text, new vector (or none) and new turn row (its meta may have changed). */
  private revector(docs: number[], t: Turn, vector: Float32Array | undefined): void {
    for (const [i, doc] of docs.entries()) {
      const v = this.passageVector(vector, i, docs.length);
      if (v) this.vectors.set(doc, v);
      else this.vectors.clear(doc);
      this.turns[doc] = t;
      this.speakerOf[doc] = this.speakerNumber(t.speaker);
    }
  }

  private speakerNumber(speaker: string): number {
    let n = this.speakerNumbers.get(speaker);
    if (n === undefined) {
      n = this.speakerNames.push(speaker) - 1;
      this.speakerNumbers.set(speaker, n);
    }
    return n;
  }

  private remove(docs: number[]): void {
    const t = this.turns[docs[0]!]!;
    const session = this.sessions.get(t.sessionId)!;
    for (const doc of docs) {
      if (this.gone.has(doc)) continue;
      this.gone.add(doc);
      this.live[doc] = 0;
      this.bm25.remove(doc, this.textOf(doc));
      this.vectors.clear(doc);
      const left = (this.speakerCounts.get(t.speaker) ?? 1) - 1;
      if (left > 0) this.speakerCounts.set(t.speaker, left);
      else this.speakerCounts.delete(t.speaker);
      this.days.remove(t.at);
      const at = session.indexOf(doc);
      session.splice(at, 1);
      this.prev[doc] = -1;
      this.next[doc] = -1;
      this.link(session, at);
    }
    this.textBytes -= 2 * t.text.length;
    if (t.at === this.latest) {
      this.latest = "";
      for (const [d, x] of this.turns.entries())
        if (!this.gone.has(d) && x.at > this.latest) this.latest = x.at;
    }
  }

  /** Documents held (forgotten ones not counted). */
  get size(): number {
    return this.turns.length - this.gone.size;
  }

  /**
   * Roughly the bytes this index holds (for the index budget). The 700 bytes per turn (the turn's
   * object, its id and time strings, its place in the maps) were measured: heap and external
   * memory after GC grew by what this says, ±10 %, loading 100 scopes of 1K turns (`npm run bench
   * live -- --parts scopes` prints both).
   */
  get bytes(): number {
    return (
      this.textBytes +
      700 * this.turns.length +
      200 * this.partners.size +
      this.vectors.bytes +
      this.bm25.bytes
    );
  }

  private time(doc: number): UnitTime {
    this.times[doc] ??= unitTime(this.textOf(doc), this.turns[doc]!.at);
    return this.times[doc]!;
  }

  /** The held documents next to `doc` in its session. */
  private neighbours(doc: number): number[] {
    const out: number[] = [];
    if (this.prev[doc]! >= 0) out.push(this.prev[doc]!);
    if (this.next[doc]! >= 0) out.push(this.next[doc]!);
    return out;
  }

  async search(query: string, options: TurnSearch): Promise<RecallHit[]> {
    const ranker = options.ranker ?? "hybrid";
    if (!query.trim() || this.size === 0 || options.k <= 0) return [];
    const qv = options.vector ?? (await this.embedder.embed([query]))[0];
    // Dense candidates: the nearest turns, deep enough that the fusion's best sit above the cut.
    const depth = Math.max(options.k, options.depth ?? Math.max(options.k * 8, DEPTH));
    // A ranker alone needs only k of its own, unless a speaker filter will thin them out.
    const cut = (alone: boolean) => (alone && !options.speaker && !options.hearing ? options.k : depth);
    const dense = this.vectors.nearest(qv!, cut(ranker === "dense"), this.gone.size ? this.live : undefined);
    // For the hybrid, the speakers' names leave the lexical query: they match every greeting that
    // names someone ("Hey Caroline!"), and the subject signal already carries them.
    const lexicalQuery = ranker === "hybrid" ? withoutNames(query, [...this.speakerCounts.keys()]) : query;
    // Documents were added in turn order, so a document's number is the turn's position.
    // The lexical candidates: every match, best first, as deep as the dense ones.
    const lexical = this.bm25.top(lexicalQuery, cut(ranker === "bm25"));
    let fused: Map<number, Explanation>;
    if (ranker === "dense") fused = new Map(dense.map((d) => [d.doc, { dense: d.score, score: d.score }]));
    else if (ranker === "bm25")
      fused = new Map(lexical.map((l) => [l.doc, { bm25: l.score, score: l.score }]));
    else if (ranker === "rrf") fused = fuseRrf({ dense, lexical });
    else {
      const speakers = new Set((options.speakers ?? this.named(query)).map((s) => s.toLowerCase()));
      const asked = askedRanges(query, options.now ?? this.latest);
      const weights = options.weights ?? FUSION_WEIGHTS;
      // The candidates' neighbours are scored too, so what a candidate earns from them is exact.
      // Weights without the neighbour signal skip it (what `bench recall --signals` times).
      if (weights.neighbour > 0) {
        const scored = new Uint8Array(this.turns.length);
        for (const d of dense) scored[d.doc] = 1;
        const wanted: number[] = [];
        const want = (n: number) => {
          if (n < 0 || scored[n]) return;
          scored[n] = 1;
          wanted.push(n);
        };
        for (const list of [dense, lexical])
          for (const { doc } of list) {
            want(this.prev[doc]!);
            want(this.next[doc]!);
          }
        const similarities = this.vectors.similarities(wanted, qv!);
        for (let j = 0; j < wanted.length; j++) dense.push({ doc: wanted[j]!, score: similarities[j]! });
      }
      // Each speaker is asked about once per question, not once per candidate.
      const named = this.speakerNames.map((s) => speakers.has(s.toLowerCase()));
      const input: FusionInput = {
        dense,
        lexical,
        subject: (doc) => named[this.speakerOf[doc]!]!,
        time: asked.length ? (doc) => withinAsked(this.time(doc), asked) : undefined,
        dated: asksWhen(query) ? (doc) => this.time(doc).dated : undefined,
        recency: asksAboutNow(query) ? (doc) => this.days.scale(Date.parse(this.turns[doc]!.at)) : undefined,
        neighbours: (doc) => this.neighbours(doc),
        asks: (doc) => this.asking[doc]!,
        length: (doc) => this.chars[doc]!,
      };
      // One document per turn: only the k best need an explanation.
      if (this.passages === 0)
        return topScaled(input, weights, options.k, this.saidBy(options.speaker, this.heardBy(options))).map(
          ({ doc, explanation }) => this.hit(doc, explanation),
        );
      fused = fuseScaled(input, weights);
    }
    const said = this.saidBy(options.speaker, this.heardBy(options)) ?? (() => true);
    const top = new TopK(options.k);
    if (this.passages === 0) {
      for (const [doc, e] of fused) if (said(doc)) top.push(doc, e.score!);
    } else {
      // A turn scores as its best passage, and is found once.
      const best = new Map<string, number>();
      for (const [doc, e] of fused) {
        if (!said(doc)) continue;
        const id = this.turns[doc]!.id;
        const held = best.get(id);
        if (held === undefined || e.score! > fused.get(held)!.score!) best.set(id, doc);
      }
      for (const doc of best.values()) top.push(doc, fused.get(doc)!.score!);
    }
    return top.sorted().map(({ doc }) => this.hit(doc, fused.get(doc)!));
  }

  /** With a hearing, the test of a turn against it; the index knows each session's partners. */
  private heardBy(options: TurnSearch): ((turn: Turn) => boolean) | undefined {
    if (!options.hearing) return undefined;
    return turnHearingTest(
      options.hearing,
      (id) => this.partners.get(id),
      options.isPrivate ?? (() => false),
    );
  }

  /**
   * With a speaker, whether that speaker said a document (names compared without case); with an
   * admission test, whether it admits the document's turn. Undefined when neither narrows.
   */
  private saidBy(
    speaker: string | undefined,
    admit?: (turn: Turn) => boolean,
  ): ((doc: number) => boolean) | undefined {
    const admitted = admit ? (doc: number) => admit(this.turns[doc]!) : undefined;
    if (speaker === undefined) return admitted;
    const only = speaker.toLowerCase();
    const said = this.speakerNames.map((s) => s.toLowerCase() === only);
    return (doc) => said[this.speakerOf[doc]!]! && (!admitted || admitted(doc));
  }

  /** A document as a hit: its turn, or for a passage the passage's text and where it sits in the turn. */
  private hit(doc: number, explanation: Explanation): RecallHit {
    const hit = turnHit(this.turns[doc]!, explanation);
    const span = this.spans[doc];
    return span ? { ...hit, text: this.textOf(doc), passage: span } : hit;
  }
}

/** A unit that ends by asking something. */
const ASKS = /\?\s*$/;

function withoutNames(query: string, names: string[]): string {
  let out = query;
  for (const n of names) out = out.replace(namePattern(n, "gi"), " ");
  return out;
}
