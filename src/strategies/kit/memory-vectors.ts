/**
 * Embed-and-rank, as the consolidating strategies need it: for each new statement's vector, the
 * memories nearest it by cosine (CareCall's top 5, Theanine's top j, EMMA's shortlist). The
 * retriever's live index answers that when it can; otherwise the memories' stored vectors are
 * read (embedding any that have none, in memory only: filling the store is ingestion's job) and
 * ranked here.
 */
import { hearingTest } from "../../core/audience.js";
import type { Hearing, Memory, MemoryFilter, Session } from "../../core/types.js";
import { cosine } from "../../core/vector.js";
import type { NearMemories } from "../../retrieval/retriever.js";
import type { StrategyPorts } from "../strategy.js";

/**
 * For each vector, the `k` memories that pass `filter` most similar to it, best first, keeping
 * only those scoring at least `minScore`. The retriever's index answers without reading the
 * scope's vectors or sorting the scope (a session end in a 100K-memory scope read and sorted them
 * all, holding the event loop about a second); a retriever without `nearestMemories`, or `k`
 * of Infinity (every memory), lists the memories and ranks them here.
 */
export async function nearestMemories(
  ctx: StrategyPorts & { session?: Session },
  vectors: Float32Array[],
  k: number,
  wanted: MemoryFilter,
  minScore = Number.NEGATIVE_INFINITY,
): Promise<NearMemories> {
  const filter = ctx.session ? { ...wanted, hearing: consolidationHearing(ctx.session) } : wanted;
  if (ctx.retriever.nearestMemories && Number.isFinite(k)) {
    const near = await ctx.retriever.nearestMemories(ctx.scope, vectors, k, filter);
    return { ...near, lists: near.lists.map((list) => list.filter((x) => x.score >= minScore)) };
  }
  const memories = await ctx.store.listMemories(ctx.scope, filter);
  const stored = await memoryVectors(ctx, memories);
  return {
    lists: vectors.map((v) =>
      rankByCosine(v, memories, stored)
        .filter((x) => x.score >= minScore)
        .slice(0, k)
        .map((x) => ({ memory: memories[x.i]!, score: x.score })),
    ),
    among: memories.length,
  };
}

/**
 * What a session's consolidation may compare, fuse, supersede or blend its statements with: the
 * agent's whole memory except other partners' private memories, which stay with their speakers
 * (so no update made in another partner's session copies one into a memory that partner hears).
 */
export function consolidationHearing(session: Session): Hearing {
  return { scope: "agent", partners: session.partners };
}

/**
 * Whether the session's partners themselves hear a memory (their recall finds it). Consolidation
 * compares with more than that (consolidationHearing), but a fact said again is only "the same"
 * as a memory the speaker can be given back: one learned from another partner stays apart, or
 * the new turn would vanish into evidence its speaker's recall never sees.
 */
export function heardInSession(
  session: Session | undefined,
): (memory: Pick<Memory, "attributes" | "about">) => boolean {
  return session ? hearingTest({ scope: "partner", partners: session.partners }) : () => true;
}

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
