/** The SqlClient over a real Postgres server: a `pg` connection pool. */
import pg from "pg";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow } from "./sql-client.js";

/** Connections per process: enough for concurrent requests, small beside max_connections (100). */
const POOL_SIZE = 10;

export class PgPoolClient implements SqlClient {
  readonly label: string;
  private readonly pool: pg.Pool;

  /** A pool for `url`; no connection is made before the first query. */
  constructor(url: string, options: { schema: string; max?: number }) {
    this.label = withoutPassword(url);
    // Every connection sees memlane's tables first, then public (where pgvector lives), set when
    // it starts (a startup option, so no statement races the first query).
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.max ?? POOL_SIZE,
      options: `-c search_path=${quoteIdent(options.schema)},public`,
    });
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    this.pool.on("error", () => {});
  }

  async query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>> {
    const result = await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: SqlQueryable = {
      async query<R = SqlRow>(sql: string, params?: unknown[]) {
        const result = await client.query(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      },
    };
    let broken = false;
    try {
      await client.query("BEGIN");
      const out = await work(tx);
      await client.query("COMMIT");
      return out;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A connection that could not even roll back is dropped, not handed to the next caller.
      client.release(broken);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** A Postgres identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A database URL with its password hidden, for messages and log lines; other specs as they are. */
export function withoutPassword(url: string): string {
  if (!/^postgres(ql)?:/i.test(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}
