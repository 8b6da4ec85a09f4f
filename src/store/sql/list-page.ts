/**
 * One page of a filtered list (memories, sessions, turns, operations, edges), written once for
 * every SQL store: keyset paging on each list's total order (never OFFSET), so a page read while
 * others write holds exactly the rows after the last one read. Each order has its index in both
 * stores' migrations.
 */
import { InvalidInputError } from "../../core/errors.js";
import type { Scope } from "../../core/types.js";
import { type ListPage, type ListRequest, type ListTable, MAX_LIST_PAGE } from "../memory-store.js";
import { memoryWhere } from "./memory-filter.js";
import { metaWhere } from "./meta-where.js";
import { type SqlDialect, type SqlProgram, select } from "./program.js";
import { toEdge, toMemory, toSession, toTurn } from "./rows.js";
import { operationsWithRefs } from "./scope-page.js";

/** Each list's order: its columns, the last one unique within what comes before. */
export const LIST_ORDERS: Record<ListTable, readonly string[]> = {
  memories: ["observed_at", "recorded_at", "id"],
  sessions: ["at", "recorded_at", "id"],
  turns: ["at", "session_id", "idx"],
  operations: ["at", "recorded_at", "id"],
  edges: ["recorded_at", "id"],
};

/** Order columns that hold numbers (a key travels as text). */
const NUMERIC = new Set(["idx"]);

/**
 * Whether the request names a few rows by a filter with an index of its own (a session's turns, a
 * memory's edges): those are found by that index and sorted, rather than by walking the scope in
 * the list's order until enough of them turn up.
 */
function narrow(request: ListRequest): boolean {
  const f = request.filter as { sessionId?: string; memoryId?: string; ids?: string[] };
  return f.sessionId !== undefined || f.memoryId !== undefined || f.ids !== undefined;
}

/** Conditions of one request's filter (without the keyset) and their parameters. */
function filterWhere(
  d: SqlDialect,
  scope: Scope,
  request: ListRequest,
): { where: string[]; params: unknown[] } {
  if (request.table === "memories") {
    const { sql, params } = memoryWhere(d, scope, request.filter);
    return { where: [sql], params };
  }
  // A memory's operations and edges are found by id, from their own indexes: a dialect may keep
  // the scope's indexes out of the plan (SQLite would walk the scope, then test each row).
  const byId = "memoryId" in request.filter && request.filter.memoryId !== undefined && d.unindexed;
  const scoped = (column: string) => (byId && d.unindexed ? d.unindexed(column) : column);
  const where = [`${scoped("tenant")} = ?`, `${scoped("agent")} = ?`];
  const params: unknown[] = [scope.tenant, scope.agent];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  const oneOf = (column: string, value: string | string[] | undefined) => {
    if (value === undefined) return;
    const values = Array.isArray(value) ? value : [value];
    // One value as a plain equality, so the planner can walk an index in the list's order.
    if (values.length === 1) add(`${column} = ?`, values[0]);
    else add(d.inList(column), d.list(values));
  };
  const meta = (column: string, filter: ListRequest["filter"]) => {
    if (!("meta" in filter) || !filter.meta) return;
    const m = metaWhere(d, column, [], filter.meta);
    where.push(...m.where);
    params.push(...m.params);
  };
  const range = (column: string, after?: string, before?: string) => {
    if (after !== undefined) add(`${column} >= ?`, after);
    if (before !== undefined) add(`${column} < ?`, before);
  };
  switch (request.table) {
    case "sessions": {
      const f = request.filter;
      oneOf("status", f.status);
      if (f.partner !== undefined) add(d.jsonArrayMeets("partners"), d.list([f.partner]));
      oneOf("strategy", f.strategy);
      meta("meta", f);
      range("at", f.after, f.before);
      break;
    }
    case "turns": {
      const f = request.filter;
      oneOf("session_id", f.sessionId);
      oneOf("speaker", f.speaker);
      meta("meta", f);
      range("at", f.after, f.before);
      break;
    }
    case "operations": {
      const f = request.filter;
      oneOf("status", f.status);
      oneOf("type", f.type);
      oneOf("session_id", f.sessionId);
      if (f.memoryId !== undefined) {
        // Postgres keeps the scope on every ref; SQLite's operation ids are unique store-wide.
        if (d.name === "postgres")
          add(
            "id IN (SELECT r.op_id FROM operation_refs r WHERE r.tenant = ? AND r.agent = ? AND r.memory_id = ?)",
            scope.tenant,
            scope.agent,
            f.memoryId,
          );
        else add("id IN (SELECT r.op_id FROM operation_refs r WHERE r.memory_id = ?)", f.memoryId);
      }
      range("at", f.after, f.before);
      break;
    }
    case "edges": {
      const f = request.filter;
      if (f.memoryId !== undefined)
        add(
          `id IN (SELECT id FROM edges WHERE ${scoped("tenant")} = ? AND ${scoped("agent")} = ? AND src = ? UNION SELECT id FROM edges WHERE ${scoped("tenant")} = ? AND ${scoped("agent")} = ? AND dst = ?)`,
          ...[scope.tenant, scope.agent, f.memoryId, scope.tenant, scope.agent, f.memoryId],
        );
      oneOf("type", f.type);
      break;
    }
  }
  return { where, params };
}

/**
 * Rows of the request's list after its key, at most its limit (1 to MAX_LIST_PAGE). `next` is
 * null on the last page: one row more than asked is read to know.
 */
export function* readListPage(d: SqlDialect, scope: Scope, request: ListRequest): SqlProgram<ListPage> {
  const order = LIST_ORDERS[request.table];
  const { where, params } = filterWhere(d, scope, request);
  const descending = request.newest === true;
  // Where the dialect can keep an index out of the plan (SQLite), a narrow request sorts its
  // few rows instead of walking the order's index; Postgres plans by its statistics.
  const sorted = (c: string) => (narrow(request) && d.unindexed ? d.unindexed(c) : c);
  if (request.after) {
    const key = request.after;
    const numberAt = (i: number) => NUMERIC.has(order[i]!);
    if (key.length !== order.length || key.some((v, i) => numberAt(i) && !/^\d{1,15}$/.test(v)))
      throw new InvalidInputError(`This cursor does not belong to a list of ${request.table}`, {
        field: "cursor",
      });
    where.push(
      `(${order.map(sorted).join(", ")}) ${descending ? "<" : ">"} (${order.map(() => "?").join(", ")})`,
    );
    params.push(...key.map((v, i) => (numberAt(i) ? Number(v) : v)));
  }
  const n = Math.min(MAX_LIST_PAGE, Math.max(1, Math.floor(request.limit)));
  const rows = yield* select(
    `SELECT * FROM ${request.table} WHERE ${where.join(" AND ")} ORDER BY ${order
      .map((c) => `${sorted(c)}${descending ? " DESC" : ""}`)
      .join(", ")} LIMIT ${n + 1}`,
    ...params,
  );
  const more = rows.length > n;
  if (more) rows.length = n;
  const last = rows.at(-1);
  const next = more && last ? order.map((c) => String(last[c])) : null;
  switch (request.table) {
    case "memories":
      return { table: "memories", rows: rows.map(toMemory), next };
    case "sessions":
      return { table: "sessions", rows: rows.map(toSession), next };
    case "turns":
      return { table: "turns", rows: rows.map(toTurn), next };
    case "operations":
      return { table: "operations", rows: yield* operationsWithRefs(d, scope, rows), next };
    case "edges":
      return { table: "edges", rows: rows.map(toEdge), next };
  }
}
