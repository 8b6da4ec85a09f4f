/**
 * One WriteBatch inside the caller's transaction. Rows go in with one multi-row INSERT per table
 * (arrays unnested server side), so a batch of thousands costs a handful of round trips; a
 * duplicate or a missing parent row fails the statement, and so the whole transaction.
 */
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Scope } from "../../core/types.js";
import type { EmbeddingRecord, WriteBatch } from "../../store/memory-store.js";
import { vectorToBlob } from "../../store/sqlite/rows.js";
import { conflictOr } from "./pg-errors.js";
import type { SqlQueryable } from "./sql-client.js";
import { vectorLiteral } from "./vector-index.js";

/** A column to insert: its name, its SQL type, and how a row gives its value. */
type Column<T> = [name: string, type: string, value: (row: T) => unknown];

/** Inserts `rows` with one statement: `columns` typed as given, values unnested from arrays. */
async function insertMany<T>(
  tx: SqlQueryable,
  table: string,
  columns: Column<T>[],
  rows: T[],
  suffix = "",
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(", ");
  // pgvector values travel as text ("[0.1,0.2]") and are cast once unnested.
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type === "vector" ? "text" : type}[]`);
  const values = columns.map(([name, type]) => (type === "vector" ? `${name}::vector` : name));
  await tx.query(
    `INSERT INTO ${table} (${names}) SELECT ${values.join(", ")} FROM unnest(${arrays.join(", ")}) AS u(${names}) ${suffix}`,
    columns.map(([, , value]) => rows.map(value)),
  );
}

const json = (value: unknown) => JSON.stringify(value ?? null);

/** pgvector's copy of a memory's vector, for the HNSW index (turn vectors are searched in process). */
const vectorColumn: Column<EmbeddingRecord> = [
  "embedding",
  "vector",
  (x) => (x.ownerKind === "memory" ? vectorLiteral(x.vector) : null),
];

/**
 * Applies the batch in `scope`. `withVectors`: the table has pgvector's `embedding` column, filled
 * for memory vectors so the HNSW index can serve them.
 * @throws {ConflictError} a duplicate row, a missing parent, a forgotten source turn, a consolidated session
 */
export async function applyBatch(
  tx: SqlQueryable,
  scope: Scope,
  b: WriteBatch,
  withVectors: boolean,
): Promise<void> {
  const s = [scope.tenant, scope.agent];
  if (b.requireTurns?.length) {
    const wanted = [...new Set(b.requireTurns)];
    const present = await tx.query<{ n: string }>(
      "SELECT count(*) AS n FROM turns WHERE tenant = $1 AND agent = $2 AND id = ANY($3::text[])",
      [...s, wanted],
    );
    if (Number(present.rows[0]?.n) !== wanted.length)
      throw new ConflictError(
        "Turns this write was made from are gone (forgotten meanwhile); nothing was written",
        { reason: "turns-forgotten" },
      );
  }
  const now = new Date().toISOString();
  try {
    await insertMany(
      tx,
      "sessions",
      [
        ["tenant", "text", (x) => x.tenant],
        ["agent", "text", (x) => x.agent],
        ["id", "text", (x) => x.id],
        ["partners", "text", (x) => JSON.stringify(x.partners)],
        ["at", "text", (x) => x.at],
        ["status", "text", (x) => x.status],
        ["strategy", "text", (x) => x.strategy],
        ["meta", "text", (x) => JSON.stringify(x.meta)],
        ["recorded_at", "text", (x) => x.recordedAt || now],
      ],
      b.sessions ?? [],
    );
  } catch (error) {
    throw conflictOr(error, `A session of this batch already exists for agent "${scope.agent}"`, {
      sessions: b.sessions?.map((x) => x.id),
    });
  }
  for (const u of b.sessionUpdates ?? []) {
    const updated = await tx.query(
      `UPDATE sessions SET partners = coalesce($4, partners), meta = coalesce($5, meta)
       WHERE tenant = $1 AND agent = $2 AND id = $3`,
      [...s, u.id, u.partners ? JSON.stringify(u.partners) : null, u.meta ? JSON.stringify(u.meta) : null],
    );
    if (updated.rowCount === 0) throw new ConflictError(`No session "${u.id}" to update`, { session: u.id });
  }
  // A consolidated session stays consolidated: a second consolidation (two workers, a retry
  // racing the queue) is refused whole, so its memories are never written twice.
  for (const st of b.sessionStatus ?? []) {
    const updated = await tx.query(
      "UPDATE sessions SET status = $4 WHERE tenant = $1 AND agent = $2 AND id = $3 AND status <> 'consolidated'",
      [...s, st.id, st.status],
    );
    if (updated.rowCount > 0) continue;
    const exists = await tx.query("SELECT 1 FROM sessions WHERE tenant = $1 AND agent = $2 AND id = $3", [
      ...s,
      st.id,
    ]);
    throw exists.rows.length
      ? new ConflictError(`Session "${st.id}" is consolidated already`, {
          session: st.id,
          reason: "already-consolidated",
        })
      : new ConflictError(`No session "${st.id}" to mark ${st.status}`, {
          session: st.id,
          reason: "no-session",
        });
  }
  try {
    await insertMany(
      tx,
      "turns",
      [
        ["tenant", "text", (x) => x.tenant],
        ["agent", "text", (x) => x.agent],
        ["id", "text", (x) => x.id],
        ["session_id", "text", (x) => x.sessionId],
        ["idx", "integer", (x) => x.index],
        ["speaker", "text", (x) => x.speaker],
        ["text", "text", (x) => x.text],
        ["at", "text", (x) => x.at],
        ["meta", "text", (x) => JSON.stringify(x.meta)],
      ],
      b.turns ?? [],
    );
  } catch (error) {
    throw conflictOr(error, "A turn of this batch already exists or its session is missing", {
      turns: b.turns?.map((t) => t.id),
    });
  }
  try {
    await insertMany(
      tx,
      "memories",
      [
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
      ],
      b.memories ?? [],
    );
  } catch (error) {
    throw conflictOr(error, "A memory of this batch already exists", {
      memories: b.memories?.map((m) => m.id),
    });
  }
  const edges: { id: string; from: string; to: string; type: string; attributes: unknown; at: string }[] = [];
  for (const x of b.supersede ?? []) {
    const updated = await tx.query(
      `UPDATE memories SET status = 'superseded', invalid_at = $4
       WHERE tenant = $1 AND agent = $2 AND id = $3 AND status = 'active'`,
      [...s, x.oldId, x.at],
    );
    if (updated.rowCount === 0)
      throw new ConflictError(`Memory "${x.oldId}" is not an active memory of this scope`, {
        memory: x.oldId,
      });
    if (!x.byId) continue;
    // Supersedes runs new -> old; FusedInto runs old -> fused.
    const fused = x.edge === "FusedInto";
    const [from, to] = fused ? [x.oldId, x.byId] : [x.byId, x.oldId];
    const type = fused ? "FusedInto" : "Supersedes";
    edges.push({
      id: `edge_${from}_${to}`,
      from,
      to,
      type,
      attributes: x.reason ? { reason: x.reason } : {},
      at: now,
    });
  }
  for (const e of b.edges ?? []) {
    if (e.from === e.to) throw new InvalidInputError(`Edge "${e.id}" links memory ${e.from} to itself`);
    edges.push({
      id: e.id,
      from: e.from,
      to: e.to,
      type: e.type,
      attributes: e.attributes,
      at: e.recordedAt || now,
    });
  }
  try {
    await insertMany(
      tx,
      "edges",
      [
        ["tenant", "text", () => scope.tenant],
        ["agent", "text", () => scope.agent],
        ["id", "text", (x) => x.id],
        ["src", "text", (x) => x.from],
        ["dst", "text", (x) => x.to],
        ["type", "text", (x) => x.type],
        ["attributes", "text", (x) => JSON.stringify(x.attributes)],
        ["recorded_at", "text", (x) => x.at],
      ],
      edges,
    );
  } catch (error) {
    throw conflictOr(error, "An edge of this batch is a duplicate or names a missing memory", {
      edges: edges.map((e) => e.id),
    });
  }
  // A vector already stored for the same owner and model is kept: vectors are computed once.
  await insertMany(
    tx,
    "embeddings",
    [
      ["tenant", "text", () => scope.tenant],
      ["agent", "text", () => scope.agent],
      ["owner_kind", "text", (x) => x.ownerKind],
      ["owner_id", "text", (x) => x.ownerId],
      ["model", "text", (x) => x.model],
      ["dims", "integer", (x) => x.vector.length],
      ["vector", "bytea", (x) => vectorToBlob(x.vector)],
      ...(withVectors ? [vectorColumn] : []),
    ],
    b.embeddings ?? [],
    "ON CONFLICT DO NOTHING",
  );
  try {
    await insertMany(
      tx,
      "operations",
      [
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
      ],
      b.operations ?? [],
    );
  } catch (error) {
    throw conflictOr(error, "An operation of this batch already exists", {
      operations: b.operations?.map((o) => o.id),
    });
  }
  const refs = (b.operations ?? []).flatMap((o) =>
    [...new Set(o.memoryIds)].map((memory) => ({ op: o.id, memory })),
  );
  await insertMany(
    tx,
    "operation_refs",
    [
      ["tenant", "text", () => scope.tenant],
      ["agent", "text", () => scope.agent],
      ["op_id", "text", (x) => x.op],
      ["memory_id", "text", (x) => x.memory],
    ],
    refs,
    "ON CONFLICT DO NOTHING",
  );
  for (const o of b.operationStatus ?? []) {
    const updated = await tx.query(
      "UPDATE operations SET status = $4, error = $5 WHERE tenant = $1 AND agent = $2 AND id = $3",
      [...s, o.id, o.status, o.error ?? null],
    );
    if (updated.rowCount === 0)
      throw new ConflictError(`No operation "${o.id}" in this scope`, { operation: o.id });
    if (o.outputs !== undefined || o.usage)
      await tx.query(
        `UPDATE operations SET outputs = $4, calls = $5, prompt_tokens = $6, completion_tokens = $7, latency_ms = $8
         WHERE tenant = $1 AND agent = $2 AND id = $3`,
        [
          ...s,
          o.id,
          json(o.outputs),
          o.usage?.calls ?? 0,
          o.usage?.promptTokens ?? 0,
          o.usage?.completionTokens ?? 0,
          o.usage?.latencyMs ?? 0,
        ],
      );
  }
}
