/**
 * The Retriever port, version 1: hybrid search over one scope's memories and turns, each hit
 * explained per signal. The default is InProcessRetriever (a cached index per scope, rebuilt when
 * the scope's change version moves); a store that can search inside its own database (pgvector)
 * serves recall by implementing this port. Strategies receive a Retriever, never a class.
 */

import type { RecallHit } from "../core/recall.js";
import { checkSpecification, definePort } from "../core/specification.js";
import type { Memory, MemoryFilter, Scope } from "../core/types.js";
import type { FusionWeights } from "./fusion.js";
import type { TurnSearch } from "./turn-search.js";

export interface MemorySearch {
  query: string;
  k: number;
  filter?: MemoryFilter;
  /** The conversation's present, for "last month" (default: the latest memory's time). */
  now?: string;
  /** Fusion weights for the scaled fusion (default MEMORY_WEIGHTS: no graph expansion). */
  weights?: FusionWeights;
}

/** A memory found by meaning alone, with its cosine similarity to the vector asked with. */
export interface NearMemory {
  memory: Memory;
  score: number;
}

/** What `nearestMemories` found: one list per vector asked with, and how many memories it compared. */
export interface NearMemories {
  lists: NearMemory[][];
  /** Memories that passed the filter (each list was chosen among them). */
  among: number;
}

export interface Retriever {
  readonly specificationVersion: typeof RETRIEVER_SPECIFICATION.version;
  /** The k best memories of the scope that pass the filter, best first. */
  searchMemories(scope: Scope, search: MemorySearch): Promise<RecallHit[]>;
  /** The k best raw turns of the scope, best first. */
  searchTurns(scope: Scope, search: TurnSearch & { query: string }): Promise<RecallHit[]>;
  /**
   * For each vector, the `k` memories that pass the filter most similar to it by cosine, best
   * first: what consolidation compares a new statement with (CareCall's top 5, Theanine's top j,
   * EMMA's shortlist). Standing items are never among them (they are handed to every reply, not
   * searched). Optional: without it, strategies read every candidate memory's vector from the
   * store and rank them themselves, a cost that grows with the scope at every session end.
   */
  nearestMemories?(
    scope: Scope,
    vectors: Float32Array[],
    k: number,
    filter?: MemoryFilter,
  ): Promise<NearMemories>;
}

/** Refuses a Retriever written for another version of the port. */
export function checkRetriever(retriever: Retriever): Retriever {
  return checkSpecification(retriever, RETRIEVER_SPECIFICATION);
}

/** The Retriever port's specification: the version its implementations declare, the methods they have. */
export const RETRIEVER_SPECIFICATION = definePort("Retriever", "v1", ["searchMemories", "searchTurns"]);
