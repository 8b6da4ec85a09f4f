/**
 * The SQL core's way to write a store operation once for both drivers: a program is a generator
 * that yields statements and receives their results. SQLite (better-sqlite3) runs a program
 * synchronously inside its transaction; Postgres (pg, PGlite) runs the same program with `await`.
 * The few places where the two SQL dialects differ are asked of a `SqlDialect`, so a statement is
 * written with `?` placeholders and `${d.members}` for "the members of a list parameter".
 */

/** One statement: `?` placeholders, parameters in order. */
export interface SqlStatement {
  sql: string;
  params: unknown[];
}

/** What a statement gave back: its rows (SELECT) and the rows it touched (INSERT, UPDATE, DELETE). */
export interface StatementResult {
  rows: Record<string, unknown>[];
  changes: number;
}

/** A store operation written once: yields statements, returns its value. */
export type SqlProgram<T> = Generator<SqlStatement, T, StatementResult>;

/** Where the two SQL dialects differ, as far as the shared programs need. */
export interface SqlDialect {
  /** "sqlite" or "postgres", for messages. */
  readonly name: string;
  /**
   * A parenthesised sub-select of one list parameter's members, for `x IN ${members}`; the list
   * is passed through `list()`.
   */
  readonly members: string;
  /** A list of ids as the parameter `members` expects. */
  list(values: readonly string[]): unknown;
}

/** SQLite: a list parameter is a JSON array read with json_each. */
export const sqliteDialect: SqlDialect = {
  name: "sqlite",
  members: "(SELECT value FROM json_each(?))",
  list: (values) => JSON.stringify(values),
};

/** Postgres: a list parameter is a text[] unnested. */
export const postgresDialect: SqlDialect = {
  name: "postgres",
  members: "(SELECT unnest(?::text[]))",
  list: (values) => [...values],
};

/** Yields one SELECT and returns its rows. */
export function* select(sql: string, ...params: unknown[]): SqlProgram<Record<string, unknown>[]> {
  return (yield { sql, params }).rows;
}

/** Yields one INSERT, UPDATE or DELETE and returns how many rows it touched. */
export function* change(sql: string, ...params: unknown[]): SqlProgram<number> {
  return (yield { sql, params }).changes;
}

/** Runs a program on a synchronous driver (better-sqlite3, inside its transaction). */
export function runSync<T>(program: SqlProgram<T>, run: (s: SqlStatement) => StatementResult): T {
  let step = program.next();
  while (!step.done) step = program.next(run(step.value));
  return step.value;
}

/** Runs a program on an asynchronous driver (pg or PGlite, inside a transaction). */
export async function runAsync<T>(
  program: SqlProgram<T>,
  run: (s: SqlStatement) => Promise<StatementResult>,
): Promise<T> {
  let step = program.next();
  while (!step.done) step = program.next(await run(step.value));
  return step.value;
}

/** `?` placeholders numbered for Postgres (`$1`, `$2`…). The shared SQL has no `?` in strings. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
