/**
 * The SQL core's way to write a store operation once for both drivers: a program is a generator
 * that yields statements and receives their results. SQLite (better-sqlite3) runs a program
 * synchronously inside its transaction; Postgres (pg, PGlite) runs the same program with `await`.
 * The few places where the SQL dialects differ are asked of a `SqlDialect` that each driver gives
 * (sqlite/dialect.ts, adapters/postgres/dialect.ts), so a statement is written with `?`
 * placeholders and `${d.members}` for "the members of a list parameter".
 *
 * A program that does long work of its own between statements (a pass over every row of a scope)
 * yields `PAUSE` now and then: the asynchronous runner gives the event loop back there once the
 * slice is spent (core/yield-to-loop.ts), the synchronous one goes straight on.
 */
import { breathe } from "../../core/yield-to-loop.js";

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

/** Where a program's own long work may give the event loop back; not a statement. */
export const PAUSE: unique symbol = Symbol("pause");

/** A store operation written once: yields statements (and pauses), returns its value. */
export type SqlProgram<T> = Generator<SqlStatement | typeof PAUSE, T, StatementResult>;

/** What a program receives back from a pause. */
const NOTHING: StatementResult = { rows: [], changes: 0 };

/** A column to insert: its name, its Postgres type, and how a row gives its value. */
export type Column<T> = readonly [name: string, type: string, value: (row: T) => unknown];

/** Where the SQL dialects differ, as far as the shared programs need; each driver gives its own. */
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
  /** `column` is one of a list parameter's members (the list passed through `list()`). */
  inList(column: string): string;
  /** A column the planner should not use an index for (SQLite: `+column`); absent where plans need no hint. */
  unindexed?(column: string): string;
  /** The text of one key of a JSON text column (NULL when absent). */
  jsonText(column: string, key: string): string;
  /**
   * The text of the scalar at `path` in a JSON text column ("true", "42", "work"), NULL when it is
   * absent, an object or a list; the path travels as parameters (its keys are the caller's words).
   */
  jsonScalarText(column: string, path: readonly string[]): { sql: string; params: unknown[] };
  /**
   * Whether the JSON array under one key of a JSON text column shares a member with a list
   * parameter (the list passed through `list()`); false when the key is absent or not an array.
   */
  jsonListMeets(column: string, key: string): string;
  /** Whether a JSON array text column shares a member with a list parameter (passed through `list()`). */
  jsonArrayMeets(column: string): string;
  /** Statements that insert rows into a table; `ignoreConflicts` keeps what is stored instead. */
  insert<T>(
    table: string,
    columns: readonly Column<T>[],
    rows: T[],
    ignoreConflicts: boolean,
  ): SqlStatement[];
  /** A ConflictError for a constraint violation (a duplicate, a missing parent), or the error unchanged. */
  conflictOr(error: unknown, message: string, details: Record<string, unknown>): Error;
  /** The columns of `operation_refs` (Postgres keeps the scope on every row, SQLite on the operation). */
  refColumns(scope: { tenant: string; agent: string }): Column<{ op: string; memory: string }>[];
}

/** Yields one SELECT and returns its rows. */
export function* select(sql: string, ...params: unknown[]): SqlProgram<Record<string, unknown>[]> {
  return (yield { sql, params }).rows;
}

/** Yields one INSERT, UPDATE or DELETE and returns how many rows it touched. */
export function* change(sql: string, ...params: unknown[]): SqlProgram<number> {
  return (yield { sql, params }).changes;
}

/**
 * Runs a program on a synchronous driver (better-sqlite3, inside its transaction). A statement's
 * error is thrown into the program at its `yield`, so the program can turn it into its own.
 */
export function runSync<T>(program: SqlProgram<T>, run: (s: SqlStatement) => StatementResult): T {
  let step = program.next();
  while (!step.done) {
    const statement = step.value;
    // Inside a synchronous transaction nothing else may run: a pause is passed over.
    if (statement === PAUSE) {
      step = program.next(NOTHING);
      continue;
    }
    let result: StatementResult;
    try {
      result = run(statement);
    } catch (error) {
      step = program.throw(error);
      continue;
    }
    step = program.next(result);
  }
  return step.value;
}

/**
 * Runs a program on an asynchronous driver (pg or PGlite, inside a transaction). Every statement
 * is awaited, and at a pause the event loop runs once the slice is spent, so the program's own
 * work between statements holds the loop no longer than a slice.
 */
export async function runAsync<T>(
  program: SqlProgram<T>,
  run: (s: SqlStatement) => Promise<StatementResult>,
): Promise<T> {
  let step = program.next();
  while (!step.done) {
    const statement = step.value;
    if (statement === PAUSE) {
      const pause = breathe();
      if (pause) await pause;
      step = program.next(NOTHING);
      continue;
    }
    let result: StatementResult;
    try {
      result = await run(statement);
    } catch (error) {
      step = program.throw(error);
      continue;
    }
    step = program.next(result);
  }
  return step.value;
}

/** `?` placeholders numbered for Postgres (`$1`, `$2`…). The shared SQL has no `?` in strings. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
