/**
 * The MemoryStore port (docs/architecture.md, "Rooms" and "Thinking steps"). Every read takes a Scope; there is no unscoped
 * read path. Every change that touches several rows goes through `write`, which applies a whole
 * WriteBatch in one transaction or nothing at all.
 */

import { definePort } from "../core/specification.js";
import type {
  Edge,
  EdgeType,
  Memory,
  MemoryFilter,
  MetaFilter,
  Operation,
  OperationStatus,
  OperationType,
  Scope,
  Session,
  SessionStatus,
  Turn,
  Usage,
} from "../core/types.js";

/** Marks `oldId` as superseded from conversation time `at`, replaced by `byId` (if any). */
export interface Supersession {
  oldId: string;
  byId: string | null;
  at: string;
  /** Supersedes (an edge from the newcomer to the old memory) or FusedInto (from the old one to the fused). */
  edge?: "Supersedes" | "FusedInto";
  reason?: string;
}

/** A vector to store for a memory or a turn, computed once and kept. */
export interface EmbeddingRecord {
  ownerKind: "memory" | "turn";
  ownerId: string;
  model: string;
  vector: Float32Array;
}

/** Everything one logical change writes; applied atomically by `write`. */
export interface WriteBatch {
  /**
   * Turns the batch was derived from: if any is gone when the batch is applied (a forget ran
   * meanwhile), nothing is written (ConflictError), so forgotten words cannot come back.
   */
  requireTurns?: string[];
  /**
   * When the writer read the turns it names in `requireTurns`: a turn a forget redacted after
   * that (its `meta.redactedAt`) refuses the batch too, so a fact told back and redacted cannot
   * come back through work that read it before.
   */
  requireTurnsReadAt?: string;
  sessions?: Session[];
  /**
   * New statuses of stored sessions. A consolidated session stays consolidated: a batch that
   * sets any status on one is refused whole (ConflictError, `details.reason:
   * "already-consolidated"`), checked inside the write transaction so that of two consolidations
   * racing (two workers, a retry, a job run again after its worker died) exactly one lands.
   * This is what makes a consolidation job idempotent.
   */
  sessionStatus?: { id: string; status: SessionStatus }[];
  /** New participants (a partner joined) or metadata (a partner left) of stored sessions. */
  sessionUpdates?: { id: string; partners?: string[]; meta?: Record<string, unknown> }[];
  turns?: Turn[];
  memories?: Memory[];
  supersede?: Supersession[];
  /**
   * Superseded memories made current again (a restore): status active, `invalidAt` cleared,
   * applied before `supersede`. A memory that is not a superseded memory of the scope fails the
   * batch (ConflictError), so of two restores racing one lands.
   */
  reinstate?: string[];
  /**
   * Turns that said a stored memory's fact again: added to the memory's `sourceTurns` (once
   * each), whatever its status. A memory not in the scope fails the batch (ConflictError).
   */
  evidence?: { memoryId: string; turns: string[] }[];
  edges?: Edge[];
  embeddings?: EmbeddingRecord[];
  operations?: Operation[];
  /**
   * Operations whose outcome came later (per-turn work finished, a retry fixed it): the status
   * and error become the given ones, and outputs and usage too when given.
   */
  operationStatus?: {
    id: string;
    status: OperationStatus;
    error?: string | null;
    outputs?: unknown;
    usage?: Usage;
  }[];
}

export interface ForgetRequest {
  /**
   * Forget everything about this person: a partner or a speaker of the scope (or of its pending
   * uploads), never a word of its text. @throws {NotFoundError} no such person, naming those there are
   */
  about?: string;
  memoryIds?: string[];
  sessionId?: string;
  /**
   * People and sessions of the scope that this process holds in uploads not yet stored (a running
   * ingest's copy, an in-process job store), so that a forget may name them. Uploads kept in the
   * store's own database (`ingest_jobs`) are read by the store itself.
   */
  pending?: { people: string[]; sessions: string[] };
  /**
   * The operation that records the forget (counts, never content), made from its report and
   * written in the same transaction as the erase.
   */
  record?: (report: ForgetReport) => Operation;
}

/** What a forget removed, row by row. */
export interface ForgetReport {
  memories: number;
  edges: number;
  operations: number;
  embeddings: number;
  turns: number;
  sessions: number;
  /** Operations and turns whose copies of the erased text were redacted in place. */
  redacted: number;
}

export interface VectorHit {
  id: string;
  score: number;
}

/**
 * A scope's changes after some version: ids whose rows were inserted, updated or deleted (read
 * the rows to know which), and the edges with their ends. `version` is the version they reach.
 */
export interface ScopeChanges {
  version: string;
  memories: string[];
  turns: string[];
  /** Owners whose vector (under any model) was written or deleted. */
  memoryVectors: string[];
  turnVectors: string[];
  edges: { id: string; from: string; to: string }[];
}

export interface TurnFilter {
  sessionId?: string;
  speaker?: string;
  ids?: string[];
}

export interface OperationFilter {
  memoryId?: string;
  sessionId?: string;
  status?: OperationStatus;
  type?: OperationType;
  /** At most this many: the oldest, or with `newest` the newest. */
  limit?: number;
  /** Newest first (and `limit` keeps the newest). Default: oldest first, the log's order. */
  newest?: boolean;
}

/** Which sessions a page of sessions holds (every field given must match). */
export interface SessionListFilter {
  status?: SessionStatus | SessionStatus[];
  /** Sessions this partner took part in. */
  partner?: string;
  strategy?: string;
  meta?: MetaFilter;
  /** Conversation time `at` at or after this (ISO-8601 UTC). */
  after?: string;
  /** Conversation time `at` before this. */
  before?: string;
}

/** Which turns a page of turns holds. */
export interface TurnListFilter {
  sessionId?: string;
  speaker?: string;
  meta?: MetaFilter;
  after?: string;
  before?: string;
}

/** Which operations a page of the log holds. */
export interface OperationListFilter {
  memoryId?: string;
  sessionId?: string;
  status?: OperationStatus;
  type?: OperationType;
  after?: string;
  before?: string;
}

/** Which edges a page of edges holds: those touching a memory (either end), of some types. */
export interface EdgeListFilter {
  memoryId?: string;
  type?: EdgeType | EdgeType[];
}

/** Most rows one page of a list may hold, whatever the caller asks. */
export const MAX_LIST_PAGE = 1000;

/** The lists a caller pages through. */
export const LIST_TABLES = ["memories", "sessions", "turns", "operations", "edges"] as const;
export type ListTable = (typeof LIST_TABLES)[number];

/**
 * One page of a filtered list: at most `limit` rows in the list's order after the key `after`
 * (the previous page's `next`; null for the first page). Keyset paging on a total order, so rows
 * written meanwhile never shift a page: nothing is read twice or skipped.
 */
export type ListRequest = {
  after: string[] | null;
  limit: number;
  /** The list read backwards, newest first (`after` then reads the rows before the key). */
  newest?: boolean;
} & (
  | { table: "memories"; filter: MemoryFilter }
  | { table: "sessions"; filter: SessionListFilter }
  | { table: "turns"; filter: TurnListFilter }
  | { table: "operations"; filter: OperationListFilter }
  | { table: "edges"; filter: EdgeListFilter }
);

/** A page of a list; `next` is the key after which the next page starts, null on the last page. */
export type ListPage =
  | { table: "memories"; rows: Memory[]; next: string[] | null }
  | { table: "sessions"; rows: Session[]; next: string[] | null }
  | { table: "turns"; rows: Turn[]; next: string[] | null }
  | { table: "operations"; rows: Operation[]; next: string[] | null }
  | { table: "edges"; rows: Edge[]; next: string[] | null };

/** The tables of a scope an export reads, in the order an import writes them. */
export const SCOPE_TABLES = ["sessions", "turns", "memories", "edges", "operations", "embeddings"] as const;
export type ScopeTable = (typeof SCOPE_TABLES)[number];

/** One page of a scope's rows of one table, in key order; `next` reads the page after (null: none). */
export type ScopePage =
  | { table: "sessions"; rows: Session[]; next: string[] | null }
  | { table: "turns"; rows: Turn[]; next: string[] | null }
  | { table: "memories"; rows: Memory[]; next: string[] | null }
  | { table: "edges"; rows: Edge[]; next: string[] | null }
  | { table: "operations"; rows: Operation[]; next: string[] | null }
  | { table: "embeddings"; rows: EmbeddingRecord[]; next: string[] | null };

export interface StoreStats {
  sessions: number;
  turns: number;
  memories: Record<string, number>;
  edges: number;
  operations: Record<string, number>;
  embeddings: number;
}

/** A batch and the scope it belongs to, for writes that span several agents' scopes. */
export interface ScopedBatch {
  scope: Scope;
  batch: WriteBatch;
}

export interface MemoryStore {
  /** The port's version; the engine refuses any other. */
  readonly specificationVersion: typeof MEMORY_STORE_SPECIFICATION.version;
  /**
   * Applies every part of the batch in one transaction; on any error nothing is written.
   * Every row must belong to `scope`; a row of another tenant or agent is refused.
   */
  write(scope: Scope, batch: WriteBatch): Promise<void>;
  /**
   * Several scopes' batches (of one tenant or several) in one transaction: a conversation between
   * agents stores each turn in every agent's scope at once, or nowhere.
   */
  writeMany(entries: ScopedBatch[]): Promise<void>;

  getSession(scope: Scope, id: string): Promise<Session | null>;
  listSessions(
    scope: Scope,
    filter?: { status?: SessionStatus | SessionStatus[]; partner?: string },
  ): Promise<Session[]>;
  listTurns(scope: Scope, filter?: TurnFilter): Promise<Turn[]>;

  getMemory(scope: Scope, id: string): Promise<Memory | null>;
  listMemories(scope: Scope, filter?: MemoryFilter): Promise<Memory[]>;
  /** Edges touching any of the given memories (either direction). */
  listEdges(scope: Scope, memoryIds?: string[]): Promise<Edge[]>;

  listOperations(scope: Scope, filter?: OperationFilter): Promise<Operation[]>;
  getOperation(scope: Scope, id: string): Promise<Operation | null>;

  /** Stored vectors for the given owners under one embedding model. */
  getEmbeddings(
    scope: Scope,
    ownerKind: "memory" | "turn",
    ids: string[],
    model: string,
  ): Promise<Map<string, Float32Array>>;
  /**
   * Cosine search over the memories that match the filter: exact, or approximate where the
   * store searches on a vector index (`searchesInDatabase`).
   */
  searchMemories(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    filter?: MemoryFilter,
  ): Promise<VectorHit[]>;

  /**
   * Optional: true when `searchMemories` runs on a vector index inside the database (pgvector's
   * HNSW), so a retriever asks it for the dense signal instead of holding every vector itself.
   */
  searchesInDatabase?(): Promise<boolean>;

  /** Deletes for real: rows, embeddings, edges and operation payloads. The only erasing path. */
  forget(scope: Scope, request: ForgetRequest): Promise<ForgetReport>;

  /**
   * A token that changes whenever anything is committed in this scope, by this process or
   * another, and never because of another scope's writes; caches (the retrieval indexes, loaded
   * graphs) compare it to know when to rebuild. Cheap to call on every query.
   */
  changeVersion(scope: Scope): Promise<string>;

  /**
   * Optional: what changed in the scope after version `since` (a value `changeVersion` gave), by
   * this process or another, so a search index can be updated in place instead of built again.
   * Null when the store can no longer tell (its change log was pruned past `since`).
   */
  changesSince?(scope: Scope, since: string): Promise<ScopeChanges | null>;

  /**
   * Optional: holds a session against appends by other processes until the returned release is
   * called (a Postgres advisory lock on a connection of its own). The turn path holds it from
   * reading the session's last turn to storing the next, so replicas appending to one session
   * take turns instead of colliding on its next place. Stores used by one process need none.
   */
  holdSession?(scope: Scope, sessionId: string): Promise<() => Promise<void>>;

  /**
   * Optional: connects and makes the schema ready (migrating an older one) now rather than at
   * the first call, throwing when the store cannot be used (unreachable, or written by a newer
   * memlane). A process calls it before it serves or takes jobs, so it refuses to start instead
   * of failing each request or job. Stores opened ready need none.
   */
  open?(): Promise<void>;

  /**
   * Optional: one page of the scope's rows of a table, every status included, in key order
   * (bytewise, the same in every store), after the key a previous page gave. An export reads a
   * scope of any size through it a page at a time; a store without it is read whole.
   */
  readPage?(scope: Scope, table: ScopeTable, after: string[] | null, limit: number): Promise<ScopePage>;

  /**
   * Optional: one page of a filtered list (memories, sessions, turns, operations, edges), what the
   * engine's `list…` methods read. A store without it cannot page (UnsupportedError).
   */
  listPage?(scope: Scope, request: ListRequest): Promise<ListPage>;

  /** All agents of a tenant with stored sessions or memories. */
  listAgents(tenant: string): Promise<string[]>;
  /**
   * Optional: the sessions of every tenant whose status is `closed` (a consolidation is owed),
   * keys and conversation time only, ordered by tenant, agent and time. Only the engine calls
   * it, for a shared job queue's sweep for sessions whose job was never queued; nothing of a
   * session's content crosses tenants.
   */
  listClosedSessions?(): Promise<{ tenant: string; agent: string; id: string; at: string }[]>;
  stats(scope: Scope): Promise<StoreStats>;
  close(): Promise<void>;
}

/** The MemoryStore port's specification: the version its implementations declare, the methods they have. */
export const MEMORY_STORE_SPECIFICATION = definePort("MemoryStore", "v1", [
  "write",
  "writeMany",
  "changeVersion",
]);
