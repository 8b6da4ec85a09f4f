/**
 * One page of a scope's rows of one table in key order, written once for every SQL store: what an
 * export reads, so a scope of any size is read a page at a time (keyset paging on the primary key,
 * never OFFSET) and two stores holding the same rows give them in the same order (keys are
 * compared bytewise: SQLite's default, Postgres's key columns are COLLATE "C").
 */
import type { Operation, Scope } from "../../core/types.js";
import type { ScopePage, ScopeTable } from "../memory-store.js";
import { type SqlDialect, type SqlProgram, select } from "./program.js";
import { blobToVector, type Row, toEdge, toMemory, toOperation, toSession, toTurn } from "./rows.js";

/** Each table's key, the order of its pages. */
const KEYS: Record<ScopeTable, string[]> = {
  sessions: ["id"],
  turns: ["id"],
  memories: ["id"],
  edges: ["id"],
  operations: ["id"],
  embeddings: ["owner_kind", "model", "owner_id"],
};

/**
 * Rows of `table` in the scope after the key `after` (the previous page's `next`; null for the
 * first page), at most `limit`. `next` is null on the last page.
 */
export function* readScopePage(
  d: SqlDialect,
  scope: Scope,
  table: ScopeTable,
  after: string[] | null,
  limit: number,
): SqlProgram<ScopePage> {
  const key = KEYS[table];
  const where = ["tenant = ?", "agent = ?"];
  const params: unknown[] = [scope.tenant, scope.agent];
  if (after) {
    if (after.length !== key.length) throw new Error(`A ${table} page key has ${key.length} parts`);
    where.push(`(${key.join(", ")}) > (${key.map(() => "?").join(", ")})`);
    params.push(...after);
  }
  const n = Math.max(1, Math.floor(limit));
  const rows = yield* select(
    `SELECT * FROM ${table} WHERE ${where.join(" AND ")} ORDER BY ${key.join(", ")} LIMIT ${n}`,
    ...params,
  );
  const last = rows.at(-1);
  const next = rows.length === n && last ? key.map((k) => String(last[k])) : null;
  switch (table) {
    case "sessions":
      return { table, rows: rows.map(toSession), next };
    case "turns":
      return { table, rows: rows.map(toTurn), next };
    case "memories":
      return { table, rows: rows.map(toMemory), next };
    case "edges":
      return { table, rows: rows.map(toEdge), next };
    case "operations":
      return { table, rows: yield* operationsWithRefs(d, scope, rows), next };
    case "embeddings":
      return {
        table,
        rows: rows.map((r) => ({
          ownerKind: r.owner_kind as "memory" | "turn",
          ownerId: String(r.owner_id),
          model: String(r.model),
          vector: blobToVector(r.vector as Uint8Array),
        })),
        next,
      };
  }
}

/** Operation rows with the memories each touched, read in one statement. */
export function* operationsWithRefs(d: SqlDialect, scope: Scope, rows: Row[]): SqlProgram<Operation[]> {
  const refs = new Map<string, string[]>();
  if (rows.length > 0) {
    // Postgres keeps the scope on every ref; SQLite's operation ids are unique store-wide.
    const scoped = d.name === "postgres" ? " AND tenant = ? AND agent = ?" : "";
    for (const r of yield* select(
      `SELECT op_id, memory_id FROM operation_refs WHERE op_id IN ${d.members}${scoped} ORDER BY op_id, memory_id`,
      d.list(rows.map((r) => String(r.id))),
      ...(scoped ? [scope.tenant, scope.agent] : []),
    )) {
      const id = String(r.op_id);
      refs.set(id, [...(refs.get(id) ?? []), String(r.memory_id)]);
    }
  }
  return rows.map((r) => toOperation(r, refs.get(String(r.id)) ?? []));
}
