/**
 * Postgres's side of the SQL core (store/sql/): list parameters as text[] unnested, one multi-row
 * INSERT per table (arrays unnested server side, so a batch of thousands costs a handful of round
 * trips), constraint errors as ConflictErrors, and the runner that numbers `?` placeholders and
 * executes a program inside the caller's transaction.
 */
import {
  numberedPlaceholders,
  type SqlDialect,
  type SqlStatement,
  type StatementResult,
} from "../../store/sql/program.js";
import { conflictOr } from "./pg-errors.js";
import type { SqlQueryable } from "./sql-client.js";

export const postgresDialect: SqlDialect = {
  name: "postgres",
  members: "(SELECT unnest(?::text[]))",
  list: (values) => [...values],
  // = ANY keeps the HNSW query's filter a plain array test the planner pushes into the scan.
  inList: (column) => `${column} = ANY(?::text[])`,
  jsonText: (column, key) => `(${column}::jsonb ->> '${key}')`,
  jsonArrayMeets: (column) => `COALESCE(jsonb_exists_any(${column}::jsonb, ?::text[]), false)`,
  jsonScalarText: (column, path) => ({
    sql: `(CASE WHEN jsonb_typeof(${column}::jsonb #> ?::text[]) IN ('string', 'number', 'boolean') THEN ${column}::jsonb #>> ?::text[] END)`,
    params: [[...path], [...path]],
  }),
  // jsonb_exists_any is the `?|` operator as a function: `?` would be read as a placeholder.
  jsonListMeets: (column, key) =>
    `COALESCE(jsonb_exists_any(${column}::jsonb -> '${key}', ?::text[]), false)`,
  insert(table, columns, rows, ignoreConflicts) {
    const names = columns.map(([name]) => name).join(", ");
    // pgvector values travel as text ("[0.1,0.2]") and are cast once unnested.
    const arrays = columns.map(([, type]) => `?::${type === "vector" ? "text" : type}[]`);
    const values = columns.map(([name, type]) => (type === "vector" ? `${name}::vector` : name));
    return [
      {
        sql: `INSERT INTO ${table} (${names}) SELECT ${values.join(", ")} FROM unnest(${arrays.join(", ")}) AS u(${names})${ignoreConflicts ? " ON CONFLICT DO NOTHING" : ""}`,
        params: columns.map(([, , value]) => rows.map(value)),
      },
    ];
  },
  conflictOr,
  refColumns: (scope) => [
    ["tenant", "text", () => scope.tenant],
    ["agent", "text", () => scope.agent],
    ["op_id", "text", (x) => x.op],
    ["memory_id", "text", (x) => x.memory],
  ],
};

/** A runner for the SQL core's programs inside one transaction. */
export function postgresRunner(tx: SqlQueryable): (statement: SqlStatement) => Promise<StatementResult> {
  return async ({ sql, params }) => {
    const result = await tx.query(numberedPlaceholders(sql), params);
    return { rows: result.rows, changes: result.rowCount };
  };
}
