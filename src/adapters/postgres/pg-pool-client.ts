/** The SqlClient over a real Postgres server: a `pg` connection pool. */

import pg from "pg";
import { withoutPassword } from "../../store/store-spec.js";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow } from "./sql-client.js";

/** Connections per process: enough for concurrent requests, small beside max_connections (100). */
const POOL_SIZE = 10;
/** Sessions this process may hold against other processes' appends at once; more wait their turn. */
const LOCK_POOL_SIZE = 10;

export class PgPoolClient implements SqlClient {
  readonly label: string;
  private readonly pool: pg.Pool;
  private readonly settings: pg.PoolConfig;
  /** Connections that hold session locks (see `lock`), opened on first use. */
  private locks: pg.Pool | null = null;

  /** A pool for `url`; no connection is made before the first query. */
  constructor(url: string, options: { schema: string; max?: number }) {
    this.label = withoutPassword(url);
    // Every connection sees memlane's tables first, then public (where pgvector lives), set when
    // it starts (a startup option, so no statement races the first query).
    this.settings = {
      connectionString: url,
      options: `-c search_path=${quoteIdent(options.schema)},public`,
    };
    this.pool = this.newPool(options.max ?? POOL_SIZE);
  }

  async query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>> {
    const result = await this.pool.query(sql, params as unknown[]);
    return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    const held = await holdConnection(this.pool);
    const { client } = held;
    const tx: SqlQueryable = {
      async query<R = SqlRow>(sql: string, params?: unknown[]) {
        const result = await client.query(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      },
    };
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const out = await work(tx);
      await client.query("COMMIT");
      return out;
    } catch (error) {
      await client.query("ROLLBACK").catch((failure) => {
        broken = failure as Error;
      });
      throw error;
    } finally {
      // A connection that could not even roll back is dropped, not handed to the next caller.
      held.release(broken);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /**
   * Session locks live on a pool of their own: a holder also needs a connection for its writes,
   * and lock holders filling the store's pool would wait on each other for ever.
   */
  async lock(key: string): Promise<() => Promise<void>> {
    this.locks ??= this.newPool(LOCK_POOL_SIZE);
    const held = await holdConnection(this.locks);
    try {
      await held.client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
    } catch (error) {
      held.release(error as Error);
      throw error;
    }
    return async () => {
      let broken: Error | undefined;
      // A connection the server ended took its lock with it.
      if (!held.lost)
        await held.client
          .query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key])
          .catch((error: Error) => {
            broken = error;
          });
      held.release(broken);
    };
  }

  private newPool(max: number): pg.Pool {
    const pool = guardClients(new pg.Pool({ ...this.settings, max }));
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    pool.on("error", () => {});
    return pool;
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.locks?.end()]);
  }
}

/**
 * Gives every connection the pool opens an 'error' listener for its whole life, which does
 * nothing: the loss is handled by whoever holds the connection (holdConnection, pg's own
 * `pool.query`) or, while it is idle, by the pool. It covers the one moment nobody listens: pg's
 * pool takes its idle listener off a new connection before handing it over, and the taker's
 * listener comes a microtask later. A server's goodbye read from the same network chunk as the
 * end of the connection's startup falls in between, and went unheard, ending the worker
 * (57P01 after "lost the scope lock … taking it again", in the dropped-connections test).
 */
export function guardClients(pool: pg.Pool): pg.Pool {
  pool.on("connect", (client) => {
    client.on("error", ignoreLateError);
  });
  return pool;
}

function ignoreLateError(): void {}

/** A connection taken from a pool, watched while it is held. */
export interface HeldConnection {
  readonly client: pg.PoolClient;
  /** Why the connection was lost while held (the server ended it), if it was. */
  readonly lost: Error | undefined;
  /** Back to the pool; a lost or failed connection is closed instead of reused. */
  release(error?: Error): void;
}

/**
 * Takes a connection from `pool` and listens for its `'error'` event until it is released. A
 * connection checked out of a pg pool has no listener of its own: when the server ends it (a
 * restart, `pg_terminate_backend`, a failover) while it is held, the unhandled event would end
 * the process. Here the loss is recorded (and told to `onLost`), the statement in flight fails
 * as it would anyway, and the release closes the connection so the pool opens a new one.
 */
export async function holdConnection(
  pool: pg.Pool,
  onLost?: (error: Error) => void,
): Promise<HeldConnection> {
  const client = await pool.connect();
  let lost: Error | undefined;
  let released = false;
  const listener = (error: Error) => {
    if (lost || released) return;
    lost = error;
    onLost?.(error);
  };
  client.on("error", listener);
  return {
    client,
    get lost() {
      return lost;
    },
    release(error?: Error) {
      if (released) return;
      released = true;
      const broken = error ?? lost;
      // A sound connection goes back to the pool, which listens to it while it is idle. A broken
      // one is closed, and the pool no longer listens: the server's goodbye can still arrive
      // while it closes (seen when every connection was terminated under load), so it keeps
      // this listener, which now ignores it.
      if (!broken) client.off("error", listener);
      client.release(broken);
    },
  };
}

/** A Postgres identifier, quoted. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export { withoutPassword } from "../../store/store-spec.js";
