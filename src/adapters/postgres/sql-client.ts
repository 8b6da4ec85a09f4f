/**
 * The little the Postgres store needs from a connection: parameterised queries, a transaction
 * with one connection held throughout, multi-statement scripts (migrations) and close. Two
 * adapters implement it — a `pg` pool for a real server (pg-pool-client.ts) and an in-process
 * PGlite (pglite-client.ts) — so one store and one set of SQL runs on both.
 */

export type SqlRow = Record<string, unknown>;

export interface SqlResult<R = SqlRow> {
  rows: R[];
  /** Rows an INSERT, UPDATE or DELETE touched. */
  rowCount: number;
}

export interface SqlQueryable {
  /** One statement with `$1…` parameters. */
  query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>>;
}

/** Settings of one session, by name (`statement_timeout`, `lock_timeout`, `maintenance_work_mem`…). */
export type SqlSessionSettings = Record<string, string | number>;

export interface SqlClient extends SqlQueryable {
  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if not. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection held throughout, outside any transaction (it may open its own,
   * or run what cannot run in one: CREATE INDEX CONCURRENTLY), with `settings` for its session
   * only: no other caller sees them afterwards.
   */
  session<T>(work: (session: SqlQueryable) => Promise<T>, settings?: SqlSessionSettings): Promise<T>;
  /** Several statements without parameters (a migration step). */
  exec(sql: string): Promise<void>;
  /**
   * Optional: takes the session-level advisory lock on `key` on a connection held for it alone,
   * and resolves with its release. A client whose process is the database's only user (PGlite)
   * has none.
   */
  lock?(key: string): Promise<() => Promise<void>>;
  /** What to name the database in messages (the URL without its password). */
  readonly label: string;
  close(): Promise<void>;
}
