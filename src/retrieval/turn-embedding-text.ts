/**
 * What the encoder reads for a turn: the speaker's name, then the words ("Caroline: I went to
 * the support group"). Questions name people ("When did Caroline …?"), and the bundled encoder
 * weighs names heavily: on locomo-dev turns, dense recall@10 rose from 0.20 (words alone) to 0.42
 * with the name in front. Every turn vector, stored or computed on the fly, comes from here; a long
 * turn is cut into passages first, and its vector holds one vector per passage.
 */
import type { Scope, Turn } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { EmbeddingRecord, MemoryStore } from "../store/memory-store.js";

export function turnEmbeddingText(turn: Pick<Turn, "speaker" | "text">): string {
  return `${turn.speaker}: ${turn.text}`;
}

/**
 * A turn longer than this is searched as passages: each passage gets its own vector and BM25
 * document, and a hit says which passage matched. Shorter turns are one passage, as before.
 */
export const PASSAGE_CHARS = 1500;
/** Where a long turn's passages are cut: near this length, at a sentence end or else a space. */
const PASSAGE_TARGET = 1000;

/** A span of a turn's text. */
export interface Passage {
  start: number;
  end: number;
}

/** A turn's passages: the whole text when it is short, else spans of about PASSAGE_TARGET characters. */
export function passagesOf(text: string): Passage[] {
  if (text.length <= PASSAGE_CHARS) return [{ start: 0, end: text.length }];
  const out: Passage[] = [];
  let start = 0;
  while (start < text.length) {
    if (text.length - start <= PASSAGE_CHARS) {
      out.push({ start, end: text.length });
      break;
    }
    const window = text.slice(start, start + PASSAGE_CHARS);
    // The last sentence end after half the target, else the last space, else a hard cut.
    let cut = -1;
    for (const m of window.matchAll(/[.!?…]["'”’)]*\s+|\n+/g))
      if (m.index! + m[0].length >= PASSAGE_TARGET / 2 && m.index! + m[0].length <= PASSAGE_TARGET * 1.2)
        cut = m.index! + m[0].length;
    if (cut < 0) {
      const space = window.lastIndexOf(" ", PASSAGE_TARGET);
      cut = space > PASSAGE_TARGET / 2 ? space + 1 : PASSAGE_TARGET;
    }
    out.push({ start, end: start + cut });
    start += cut;
  }
  return out;
}

/**
 * The turns' vectors: those the store holds for this embedder, and fresh ones for the rest
 * (returned apart, for the caller to store in its own write). Each turn is embedded once. A long
 * turn's vector is its passages' vectors one after another (passagesOf); a stored vector of
 * another length (cut otherwise, or by another model) counts as missing.
 */
export async function turnVectors(
  store: MemoryStore,
  scope: Scope,
  embedder: Embedder,
  turns: Pick<Turn, "id" | "speaker" | "text">[],
): Promise<{ vectors: Map<string, Float32Array>; fresh: EmbeddingRecord[] }> {
  const ids = turns.map((t) => t.id);
  const vectors = ids.length ? await store.getEmbeddings(scope, "turn", ids, embedder.name) : new Map();
  const fits = (t: Pick<Turn, "id" | "text">) => {
    const v = vectors.get(t.id);
    if (!v) return false;
    // A short turn is one passage: no need to cut it (a cold load asks this of every turn).
    if (t.text.length <= PASSAGE_CHARS) return true;
    const passages = passagesOf(t.text).length;
    return !embedder.dimensions || v.length === passages * embedder.dimensions;
  };
  const fresh = await embedTurns(
    embedder,
    turns.filter((t) => !fits(t)),
  );
  for (const r of fresh) vectors.set(r.ownerId, r.vector);
  return { vectors, fresh };
}

/** The turns' vectors, as the store keeps them: one per turn, a long turn's passages one after another. */
export async function embedTurns(
  embedder: Embedder,
  turns: Pick<Turn, "id" | "speaker" | "text">[],
): Promise<EmbeddingRecord[]> {
  if (turns.length === 0) return [];
  const spans = turns.map((t) => passagesOf(t.text));
  const texts = turns.flatMap((t, i) =>
    spans[i]!.map((p) =>
      spans[i]!.length === 1 ? turnEmbeddingText(t) : `${t.speaker}: ${t.text.slice(p.start, p.end)}`,
    ),
  );
  const vectors = await embedder.embed(texts);
  let next = 0;
  return turns.map((t, i) => {
    const parts = vectors.slice(next, next + spans[i]!.length);
    next += spans[i]!.length;
    return { ownerKind: "turn", ownerId: t.id, model: embedder.name, vector: concat(parts) };
  });
}

function concat(parts: Float32Array[]): Float32Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
