/**
 * The one routine that lands a strategy hook's work, for the per-turn path and for session end
 * alike: the staged batches merged in order with the engine's own rows (the turn, the session's
 * new status), held to conversation time (engine/consolidation/time-guard.ts), the new memories embedded, everything written in one transaction (several scopes'
 * batches together for a conversation between agents), and the operations announced.
 */
import type { Operation, Scope } from "../../core/types.js";
import type { Embedder } from "../../models/embedder.js";
import type { MemoryStore, ScopedBatch, WriteBatch } from "../../store/memory-store.js";
import type { EventStream } from "../events.js";
import { stampAudience } from "../privacy/audience-stamp.js";
import { holdToConversationTime } from "./time-guard.js";

export interface StagedWrite {
  scope: Scope;
  /** What the hook staged, in order. */
  staged: WriteBatch[];
  /** The engine's own rows for the same transaction (turns, statuses, vectors it computed). */
  extra?: WriteBatch;
}

/** Batches merged: every list present, and the earliest read time of the turns they require. */
export type MergedBatch = Required<Omit<WriteBatch, "requireTurnsReadAt">> &
  Pick<WriteBatch, "requireTurnsReadAt">;

/** Concatenates batches in order. */
export function mergeBatches(batches: WriteBatch[]): MergedBatch {
  const out: MergedBatch = {
    requireTurns: [],
    sessions: [],
    sessionUpdates: [],
    sessionStatus: [],
    turns: [],
    memories: [],
    supersede: [],
    reinstate: [],
    evidence: [],
    edges: [],
    embeddings: [],
    operations: [],
    operationStatus: [],
  };
  for (const b of batches)
    for (const key of Object.keys(out) as (keyof MergedBatch)[])
      (out[key] as unknown[]).push(...((b[key] as unknown[]) ?? []));
  return out;
}

export async function applyStaged(
  parts: { store: MemoryStore; embedder: Embedder; events: EventStream },
  writes: StagedWrite[],
  signal?: AbortSignal,
): Promise<Operation[]> {
  const entries: ScopedBatch[] = [];
  for (const w of writes) {
    const batch = mergeBatches([w.extra ?? {}, ...w.staged]);
    const readAt = [w.extra, ...w.staged]
      .map((b) => b?.requireTurnsReadAt)
      .filter((x) => x !== undefined)
      .sort()[0];
    if (readAt) batch.requireTurnsReadAt = readAt;
    await holdToConversationTime(parts.store, w.scope, batch);
    await stampAudience(parts.store, w.scope, batch);
    // Memories are made from turns: if a forget erased any of them meanwhile, nothing lands.
    const written = new Set(batch.turns.map((t) => t.id));
    batch.requireTurns = [
      ...new Set([
        ...batch.requireTurns,
        ...batch.memories.flatMap((m) => m.sourceTurns),
        ...batch.evidence.flatMap((e) => e.turns),
      ]),
    ].filter((id) => !written.has(id));
    const vectors = await parts.embedder.embed(
      batch.memories.map((m) => m.text),
      { signal },
    );
    batch.embeddings.push(
      ...batch.memories.map((m, i) => ({
        ownerKind: "memory" as const,
        ownerId: m.id,
        model: parts.embedder.name,
        vector: vectors[i]!,
      })),
    );
    entries.push({ scope: w.scope, batch });
  }
  await parts.store.writeMany(entries);
  const operations = entries.flatMap((e) => e.batch.operations ?? []);
  for (const op of operations) parts.events.emit("operation", op);
  return operations;
}
