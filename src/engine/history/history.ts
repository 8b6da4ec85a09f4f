/**
 * A memory's history: every operation on it, what it replaced and what replaced it (Supersedes
 * and FusedInto edges), whatever its status, and the caller's corrections in a sentence each.
 * Nothing here writes.
 */
import { NotFoundError } from "../../core/errors.js";
import { versionStep } from "../../core/graph-of.js";
import type { Edge, Memory, Operation, Scope } from "../../core/types.js";
import type { MemoryStore } from "../../store/memory-store.js";
import { type CorrectionNote, correctionNotes } from "./corrections.js";
import { type TimelineView, walkTimeline } from "./timeline.js";

export type { CorrectionNote };

/** A memory with its operations and versions: what `history()` returns. */
export interface HistoryView {
  memory: Memory;
  operations: Operation[];
  /** What replaced this memory (through Supersedes or FusedInto edges). */
  replacedBy: Memory[];
  /** What this memory replaced. */
  replaces: Memory[];
  edges: Edge[];
  /**
   * The caller's corrections of it, oldest first, one sentence each ("updated by the caller on
   * …", "restored on …"). A restore writes no edge: a memory restored over this one is named here.
   */
  corrections: CorrectionNote[];
}

/** @throws {NotFoundError} the scope has no memory with that id */
export async function historyOf(store: MemoryStore, scope: Scope, memoryId: string): Promise<HistoryView> {
  const memory = await store.getMemory(scope, memoryId);
  if (!memory) throw new NotFoundError(`No memory "${memoryId}" for agent "${scope.agent}"`);
  const edges = await store.listEdges(scope, [memoryId]);
  const steps = edges.map(versionStep).filter((s) => s !== null);
  const replacing = steps.filter((s) => s.older === memoryId).map((s) => s.newer);
  const replaced = steps.filter((s) => s.newer === memoryId).map((s) => s.older);
  const load = async (ids: string[]) => (ids.length ? store.listMemories(scope, { ids, status: "any" }) : []);
  const operations = await store.listOperations(scope, { memoryId });
  return {
    memory,
    operations,
    replacedBy: await load(replacing),
    replaces: await load(replaced),
    edges,
    corrections: correctionNotes(operations, memoryId),
  };
}

/**
 * The memories linked to one (versions and relations) and the chain through it, oldest first.
 * @throws {NotFoundError} the scope has no memory with that id
 */
export async function timelineOf(store: MemoryStore, scope: Scope, memoryId: string): Promise<TimelineView> {
  if (!(await store.getMemory(scope, memoryId)))
    throw new NotFoundError(`No memory "${memoryId}" for agent "${scope.agent}"`);
  return walkTimeline(store, scope, memoryId);
}
