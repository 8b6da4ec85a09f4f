/**
 * SQLite's side of the SQL core (store/sql/): list parameters as JSON arrays read with json_each,
 * one prepared INSERT per row (SQLite has no round trips to save), constraint errors as
 * ConflictErrors, and the runner that executes a program synchronously inside a transaction.
 */
import type Database from "better-sqlite3";
import { ConflictError } from "../../core/errors.js";
import type { Column, SqlDialect, SqlStatement, StatementResult } from "../sql/program.js";

export const sqliteDialect: SqlDialect = {
  name: "sqlite",
  members: "(SELECT value FROM json_each(?))",
  list: (values) => JSON.stringify(values),
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  jsonScalarText(column, path) {
    const at = `$${path.map((k) => `."${k}"`).join("")}`;
    // json_extract gives SQLite values: true is 1, so booleans are named by their JSON type.
    return {
      sql: `(CASE json_type(${column}, ?) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'text' THEN json_extract(${column}, ?) WHEN 'integer' THEN CAST(json_extract(${column}, ?) AS TEXT) WHEN 'real' THEN CAST(json_extract(${column}, ?) AS TEXT) END)`,
      params: [at, at, at, at],
    };
  },
  jsonListMeets: (column, key) =>
    `EXISTS (SELECT 1 FROM json_each(${column}, '$.${key}') WHERE value IN (SELECT value FROM json_each(?)))`,
  jsonArrayMeets: (column) =>
    `EXISTS (SELECT 1 FROM json_each(${column}) WHERE value IN (SELECT value FROM json_each(?)))`,
  unindexed: (column) => `+${column}`,
  insert<T>(
    table: string,
    columns: readonly Column<T>[],
    rows: T[],
    ignoreConflicts: boolean,
  ): SqlStatement[] {
    const sql = `INSERT ${ignoreConflicts ? "OR IGNORE " : ""}INTO ${table} (${columns.map(([n]) => n).join(", ")}) VALUES (${columns.map(() => "?").join(",")})`;
    return rows.map((row) => ({ sql, params: columns.map(([, , value]) => value(row)) }));
  },
  conflictOr(error, message, details) {
    const code = (error as { code?: string }).code ?? "";
    return code.startsWith("SQLITE_CONSTRAINT") ? new ConflictError(message, details) : (error as Error);
  },
  refColumns: () => [
    ["op_id", "text", (x) => x.op],
    ["memory_id", "text", (x) => x.memory],
  ],
};

/** Most prepared statements kept per connection; the core's SQL is a small, fixed set. */
const CACHED = 256;

/**
 * A runner for the SQL core's programs on one connection, with its prepared statements cached
 * (a batch of a thousand turns prepares its INSERT once).
 */
export function sqliteRunner(db: Database.Database): (statement: SqlStatement) => StatementResult {
  const prepared = new Map<string, Database.Statement>();
  return ({ sql, params }) => {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (prepared.size >= CACHED) prepared.delete(prepared.keys().next().value!);
      prepared.set(sql, statement);
    }
    if (statement.reader) return { rows: statement.all(...params) as Record<string, unknown>[], changes: 0 };
    return { rows: [], changes: statement.run(...params).changes };
  };
}
