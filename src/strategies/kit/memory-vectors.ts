/**
 * Embed-and-rank, as the consolidating strategies need it: the stored vectors of some memories
 * (embedding any that have none, in memory only: filling the store is ingestion's job), and the
 * memories ranked by cosine to a new statement's vector.
 */
import type { Memory } from "../../core/types.js";
import { cosine } from "../../core/vector.js";
import type { StrategyPorts } from "../strategy.js";

/** Vectors of `memories` under the context's embedder, by memory id. */
export async function memoryVectors(
  ctx: StrategyPorts,
  memories: Memory[],
): Promise<Map<string, Float32Array>> {
  const stored = await ctx.store.getEmbeddings(
    ctx.scope,
    "memory",
    memories.map((m) => m.id),
    ctx.embedder.name,
  );
  const missing = memories.filter((m) => !stored.has(m.id));
  if (missing.length) {
    const fresh = await ctx.embedder.embed(
      missing.map((m) => m.text),
      { signal: ctx.signal },
    );
    for (const [i, m] of missing.entries()) stored.set(m.id, fresh[i]!);
  }
  return stored;
}

/** Memories ranked by cosine to `vector`, best first, as indexes into `memories` with their scores. */
export function rankByCosine(
  vector: Float32Array,
  memories: Memory[],
  vectors: Map<string, Float32Array>,
): { i: number; score: number }[] {
  return memories
    .map((m, i) => ({ i, score: cosine(vector, vectors.get(m.id)!) }))
    .sort((a, b) => b.score - a.score);
}
