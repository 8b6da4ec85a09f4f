/**
 * The write plan, written once for every SQL store: how a WriteBatch lands inside the caller's
 * transaction, table by table, with the rules every store keeps —
 *   - a batch made from turns a forget erased meanwhile (`requireTurns`) is refused whole;
 *   - a consolidated session stays consolidated: a second consolidation (two workers, a retry
 *     racing the queue) is refused whole, so its memories are never written twice;
 *   - only an active memory of the scope can be superseded, and superseding one with another
 *     writes the edge (Supersedes from the newer, FusedInto to the fused);
 *   - only a superseded memory of the scope can be reinstated (made current again);
 *   - a vector already stored for the same owner and model is kept (vectors are computed once);
 *   - a duplicate row or a missing parent fails the batch with a ConflictError.
 * The rows' columns are listed once (`COLUMNS`); how rows are inserted (one statement per row in
 * SQLite, one multi-row statement per table in Postgres) is the dialect's.
 */
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Edge, Memory, Operation, Scope, Session, Turn } from "../../core/types.js";
import type { EmbeddingRecord, WriteBatch } from "../memory-store.js";
import { type Column, change, type SqlDialect, type SqlProgram, select } from "./program.js";
import { vectorToBlob } from "./rows.js";

const json = (value: unknown) => JSON.stringify(value ?? null);

/** An edge as written: supersession edges carry no tenant of their own. */
interface EdgeRow {
  id: string;
  from: string;
  to: string;
  type: string;
  attributes: unknown;
  at: string;
}

/** Every table's columns, once. `now` fills a missing recordedAt. */
export function columns(scope: Scope, now: string) {
  return {
    sessions: [
      ["tenant", "text", (x) => x.tenant],
      ["agent", "text", (x) => x.agent],
      ["id", "text", (x) => x.id],
      ["partners", "text", (x) => JSON.stringify(x.partners)],
      ["at", "text", (x) => x.at],
      ["status", "text", (x) => x.status],
      ["strategy", "text", (x) => x.strategy],
      ["meta", "text", (x) => JSON.stringify(x.meta)],
      ["recorded_at", "text", (x) => x.recordedAt || now],
    ] satisfies Column<Session>[],
    turns: [
      ["tenant", "text", (x) => x.tenant],
      ["agent", "text", (x) => x.agent],
      ["id", "text", (x) => x.id],
      ["session_id", "text", (x) => x.sessionId],
      ["idx", "integer", (x) => x.index],
      ["speaker", "text", (x) => x.speaker],
      ["text", "text", (x) => x.text],
      ["at", "text", (x) => x.at],
      ["meta", "text", (x) => JSON.stringify(x.meta)],
    ] satisfies Column<Turn>[],
    memories: [
      ["tenant", "text", (x) => x.tenant],
      ["agent", "text", (x) => x.agent],
      ["id", "text", (x) => x.id],
      ["about", "text", (x) => x.about],
      ["text", "text", (x) => x.text],
      ["kind", "text", (x) => x.kind],
      ["strategy", "text", (x) => x.strategy],
      ["observed_at", "text", (x) => x.observedAt],
      ["recorded_at", "text", (x) => x.recordedAt || now],
      ["status", "text", (x) => x.status],
      ["invalid_at", "text", (x) => x.invalidAt],
      ["session_id", "text", (x) => x.sessionId],
      ["source_turns", "text", (x) => JSON.stringify(x.sourceTurns)],
      ["attributes", "text", (x) => JSON.stringify(x.attributes)],
    ] satisfies Column<Memory>[],
    edges: [
      ["tenant", "text", () => scope.tenant],
      ["agent", "text", () => scope.agent],
      ["id", "text", (x) => x.id],
      ["src", "text", (x) => x.from],
      ["dst", "text", (x) => x.to],
      ["type", "text", (x) => x.type],
      ["attributes", "text", (x) => JSON.stringify(x.attributes)],
      ["recorded_at", "text", (x) => x.at],
    ] satisfies Column<EdgeRow>[],
    embeddings: [
      ["tenant", "text", () => scope.tenant],
      ["agent", "text", () => scope.agent],
      ["owner_kind", "text", (x) => x.ownerKind],
      ["owner_id", "text", (x) => x.ownerId],
      ["model", "text", (x) => x.model],
      ["dims", "integer", (x) => x.vector.length],
      ["vector", "bytea", (x) => vectorToBlob(x.vector)],
    ] satisfies Column<EmbeddingRecord>[],
    operations: [
      ["tenant", "text", (x) => x.tenant],
      ["agent", "text", (x) => x.agent],
      ["id", "text", (x) => x.id],
      ["type", "text", (x) => x.type],
      ["status", "text", (x) => x.status],
      ["strategy", "text", (x) => x.strategy],
      ["model", "text", (x) => x.model],
      ["session_id", "text", (x) => x.sessionId],
      ["inputs", "text", (x) => json(x.inputs)],
      ["outputs", "text", (x) => json(x.outputs)],
      ["rationale", "text", (x) => x.rationale],
      ["error", "text", (x) => x.error],
      ["calls", "integer", (x) => x.usage.calls],
      ["prompt_tokens", "integer", (x) => x.usage.promptTokens],
      ["completion_tokens", "integer", (x) => x.usage.completionTokens],
      ["latency_ms", "float8", (x) => x.usage.latencyMs],
      ["at", "text", (x) => x.at],
      ["recorded_at", "text", (x) => x.recordedAt || now],
    ] satisfies Column<Operation>[],
  };
}

/** Where a batch's rows differ by store: extra columns a dialect's tables have. */
export interface WriteOptions {
  /** Columns of `embeddings` beyond the shared ones (Postgres: pgvector's copy of a memory vector). */
  embeddingColumns?: Column<EmbeddingRecord>[];
}

/** Inserts rows; a constraint violation becomes a ConflictError with this message. */
function* insert<T>(
  d: SqlDialect,
  table: string,
  cols: readonly Column<T>[],
  rows: T[],
  conflict: { message: string; details: Record<string, unknown> } | "ignore",
): SqlProgram<void> {
  if (rows.length === 0) return;
  for (const statement of d.insert(table, cols, rows, conflict === "ignore")) {
    try {
      yield statement;
    } catch (error) {
      if (conflict === "ignore") throw error;
      throw d.conflictOr(error, conflict.message, conflict.details);
    }
  }
}

/**
 * Applies the batch in `scope`, inside the caller's transaction.
 * @throws {ConflictError} a duplicate row, a missing parent, a forgotten source turn, a consolidated session
 */
export function* writeBatch(
  d: SqlDialect,
  scope: Scope,
  b: WriteBatch,
  options: WriteOptions = {},
): SqlProgram<void> {
  const s = [scope.tenant, scope.agent] as const;
  const inScope = "tenant = ? AND agent = ?";
  if (b.requireTurns?.length) {
    const wanted = [...new Set(b.requireTurns)];
    // A turn redacted after the writer read it counts as gone (memory-store.ts, requireTurnsReadAt).
    const redacted = d.jsonText("meta", "redactedAt");
    const [row] = b.requireTurnsReadAt
      ? yield* select(
          `SELECT count(*) AS n FROM turns WHERE ${inScope} AND id IN ${d.members} AND (${redacted} IS NULL OR ${redacted} < ?)`,
          ...s,
          d.list(wanted),
          b.requireTurnsReadAt,
        )
      : yield* select(
          `SELECT count(*) AS n FROM turns WHERE ${inScope} AND id IN ${d.members}`,
          ...s,
          d.list(wanted),
        );
    if (Number(row?.n) !== wanted.length)
      throw new ConflictError(
        "Turns this write was made from are gone (forgotten meanwhile); nothing was written",
        { reason: "turns-forgotten" },
      );
  }
  const now = new Date().toISOString();
  const cols = columns(scope, now);
  yield* insert(d, "sessions", cols.sessions, b.sessions ?? [], {
    message: `A session of this batch already exists for agent "${scope.agent}"`,
    details: { sessions: b.sessions?.map((x) => x.id) },
  });
  for (const u of b.sessionUpdates ?? []) {
    const updated = yield* change(
      `UPDATE sessions SET partners = coalesce(?, partners), meta = coalesce(?, meta) WHERE ${inScope} AND id = ?`,
      u.partners ? JSON.stringify(u.partners) : null,
      u.meta ? JSON.stringify(u.meta) : null,
      ...s,
      u.id,
    );
    if (updated === 0) throw new ConflictError(`No session "${u.id}" to update`, { session: u.id });
  }
  for (const st of b.sessionStatus ?? []) {
    const updated = yield* change(
      `UPDATE sessions SET status = ? WHERE ${inScope} AND id = ? AND status <> 'consolidated'`,
      st.status,
      ...s,
      st.id,
    );
    if (updated > 0) continue;
    const exists = yield* select(`SELECT 1 AS one FROM sessions WHERE ${inScope} AND id = ?`, ...s, st.id);
    throw exists.length
      ? new ConflictError(`Session "${st.id}" is consolidated already`, {
          session: st.id,
          reason: "already-consolidated",
        })
      : new ConflictError(`No session "${st.id}" to mark ${st.status}`, {
          session: st.id,
          reason: "no-session",
        });
  }
  yield* insert(d, "turns", cols.turns, b.turns ?? [], {
    message: "A turn of this batch already exists or its session is missing",
    details: { turns: b.turns?.map((t) => t.id) },
  });
  yield* insert(d, "memories", cols.memories, b.memories ?? [], {
    message: "A memory of this batch already exists",
    details: { memories: b.memories?.map((m) => m.id) },
  });
  // Before `supersede`: a restore reinstates a past version and retires what replaced it.
  for (const id of b.reinstate ?? []) {
    const updated = yield* change(
      `UPDATE memories SET status = 'active', invalid_at = NULL WHERE ${inScope} AND id = ? AND status = 'superseded'`,
      ...s,
      id,
    );
    if (updated === 0)
      throw new ConflictError(`Memory "${id}" is not a superseded memory of this scope`, { memory: id });
  }
  const edges: EdgeRow[] = [];
  for (const x of b.supersede ?? []) {
    const updated = yield* change(
      `UPDATE memories SET status = 'superseded', invalid_at = ? WHERE ${inScope} AND id = ? AND status = 'active'`,
      x.at,
      ...s,
      x.oldId,
    );
    if (updated === 0)
      throw new ConflictError(`Memory "${x.oldId}" is not an active memory of this scope`, {
        memory: x.oldId,
      });
    if (!x.byId) continue;
    // Supersedes runs new -> old; FusedInto runs old -> fused.
    const fused = x.edge === "FusedInto";
    const [from, to] = fused ? [x.oldId, x.byId] : [x.byId, x.oldId];
    edges.push({
      id: `edge_${from}_${to}`,
      from,
      to,
      type: fused ? "FusedInto" : "Supersedes",
      attributes: x.reason ? { reason: x.reason } : {},
      at: now,
    });
  }
  for (const x of b.evidence ?? []) {
    const [row] = yield* select(
      `SELECT source_turns FROM memories WHERE ${inScope} AND id = ?`,
      ...s,
      x.memoryId,
    );
    if (!row)
      throw new ConflictError(`Memory "${x.memoryId}" is not a memory of this scope`, { memory: x.memoryId });
    const known = JSON.parse(String(row.source_turns)) as string[];
    const added = x.turns.filter((t) => !known.includes(t));
    if (added.length > 0)
      yield* change(
        `UPDATE memories SET source_turns = ? WHERE ${inScope} AND id = ?`,
        JSON.stringify([...known, ...added]),
        ...s,
        x.memoryId,
      );
  }
  for (const e of b.edges ?? []) edges.push(edgeRow(e, now));
  yield* insert(d, "edges", cols.edges, edges, {
    message: "An edge of this batch is a duplicate or names a missing memory",
    details: { edges: edges.map((e) => e.id) },
  });
  yield* insert(
    d,
    "embeddings",
    [...cols.embeddings, ...(options.embeddingColumns ?? [])],
    b.embeddings ?? [],
    "ignore",
  );
  yield* insert(d, "operations", cols.operations, b.operations ?? [], {
    message: "An operation of this batch already exists",
    details: { operations: b.operations?.map((o) => o.id) },
  });
  const refs = (b.operations ?? []).flatMap((o) =>
    [...new Set(o.memoryIds)].map((memory) => ({ op: o.id, memory })),
  );
  yield* insert(d, "operation_refs", d.refColumns(scope), refs, "ignore");
  for (const o of b.operationStatus ?? []) {
    const updated = yield* change(
      `UPDATE operations SET status = ?, error = ? WHERE ${inScope} AND id = ?`,
      o.status,
      o.error ?? null,
      ...s,
      o.id,
    );
    if (updated === 0) throw new ConflictError(`No operation "${o.id}" in this scope`, { operation: o.id });
    if (o.outputs !== undefined || o.usage)
      yield* change(
        `UPDATE operations SET outputs = ?, calls = ?, prompt_tokens = ?, completion_tokens = ?, latency_ms = ? WHERE ${inScope} AND id = ?`,
        json(o.outputs),
        o.usage?.calls ?? 0,
        o.usage?.promptTokens ?? 0,
        o.usage?.completionTokens ?? 0,
        o.usage?.latencyMs ?? 0,
        ...s,
        o.id,
      );
  }
}

function edgeRow(e: Edge, now: string): EdgeRow {
  if (e.from === e.to) throw new InvalidInputError(`Edge "${e.id}" links memory ${e.from} to itself`);
  return {
    id: e.id,
    from: e.from,
    to: e.to,
    type: e.type,
    attributes: e.attributes,
    at: e.recordedAt || now,
  };
}
