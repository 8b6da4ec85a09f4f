/**
 * The vectors an imported batch lacks under this engine's embedder: computed as the batch is
 * written and stored with it, as consolidation stores a session's, so recall after an import finds
 * what it found before, and a scope of any size is embedded a batch at a time.
 */
import type { Embedder } from "../../models/embedder.js";
import { embedTurns } from "../../retrieval/turn-embedding-text.js";
import type { EmbeddingRecord, WriteBatch } from "../../store/memory-store.js";

export async function importedVectors(embedder: Embedder, batch: WriteBatch): Promise<EmbeddingRecord[]> {
  const carried = new Set(
    (batch.embeddings ?? [])
      .filter((e) => e.model === embedder.name)
      .map((e) => `${e.ownerKind}:${e.ownerId}`),
  );
  const turns = (batch.turns ?? []).filter((t) => !carried.has(`turn:${t.id}`));
  const memories = (batch.memories ?? []).filter((m) => !carried.has(`memory:${m.id}`));
  const vectors = memories.length ? await embedder.embed(memories.map((m) => m.text)) : [];
  return [
    ...(await embedTurns(embedder, turns)),
    ...memories.map((m, i) => ({
      ownerKind: "memory" as const,
      ownerId: m.id,
      model: embedder.name,
      vector: vectors[i]!,
    })),
  ];
}
