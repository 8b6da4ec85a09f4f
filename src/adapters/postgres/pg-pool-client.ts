/**
 * The SqlClient over a real Postgres server: a `pg` connection pool. Every connection starts with
 * memlane's search path, `statement_timeout` and `lock_timeout` (startup parameters: no statement
 * races the first query). Clients of one database, schema and timeouts in one process share one
 * pool (the memory store, the API keys and the upload jobs of `memlane serve`), so the process's
 * connection budget is counted once, not once per store.
 */

import pg from "pg";
import { POSTGRES_DEFAULTS } from "../../store/postgres-settings.js";
import { withoutPassword } from "../../store/store-spec.js";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow, SqlSessionSettings } from "./sql-client.js";

/** Options of a pool client; sizes and timeouts default to POSTGRES_DEFAULTS' split (store 11, locks 5). */
export interface PgPoolOptions {
  schema: string;
  /** Connections of the store's pool (queries and transactions). */
  max?: number;
  /** Connections that hold session locks (`lock`), opened on first use. */
  lockMax?: number;
  /** `statement_timeout` of every connection, in ms (0: none). */
  statementTimeoutMs?: number;
  /** `lock_timeout` of every connection, in ms (0: none). */
  lockTimeoutMs?: number;
}

/** Store connections when nothing says otherwise: the store's share of the default budget. */
const POOL_SIZE = 11;
/** Sessions this process may hold against other processes' appends at once; more wait their turn. */
const LOCK_POOL_SIZE = 5;
/**
 * Longest a caller waits for a free connection of a full pool (or for a new one), in ms. A pool
 * whose every connection is taken by statements stuck behind a lock frees them within the
 * statement timeout; a request does not wait past this for one, it fails STORE_UNAVAILABLE.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/** One process's pools for a database, schema and timeouts, and how many clients use them. */
interface SharedPools {
  pool: pg.Pool;
  /** Connections that hold session locks (see `lock`), opened on first use. */
  locks: pg.Pool | null;
  lockMax: number;
  users: number;
}

const shared = new Map<string, SharedPools>();

export class PgPoolClient implements SqlClient {
  readonly label: string;
  private readonly key: string;
  private readonly pools: SharedPools;
  private readonly settings: pg.PoolConfig;
  private readonly timeouts: { statement: number; lock: number };
  private closed = false;

  /**
   * A pool for `url`, or the one this process already has for the same database, schema and
   * timeouts (sized by whoever opened it first); no connection is made before the first query.
   */
  constructor(url: string, options: PgPoolOptions) {
    this.label = withoutPassword(url);
    this.timeouts = {
      statement: options.statementTimeoutMs ?? POSTGRES_DEFAULTS.statementTimeoutMs,
      lock: options.lockTimeoutMs ?? POSTGRES_DEFAULTS.lockTimeoutMs,
    };
    // Every connection sees memlane's tables first, then public (where pgvector lives).
    this.settings = {
      connectionString: url,
      options: `-c search_path=${quoteIdent(options.schema)},public`,
      statement_timeout: this.timeouts.statement,
      lock_timeout: this.timeouts.lock,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Says whose connection it is in pg_stat_activity (the connection budget's test counts them).
      application_name: `memlane:${process.pid}`,
    };
    this.key = JSON.stringify([url, options.schema, this.timeouts.statement, this.timeouts.lock]);
    const existing = shared.get(this.key);
    if (existing) {
      existing.users++;
      this.pools = existing;
      return;
    }
    this.pools = {
      pool: this.newPool(options.max ?? POOL_SIZE, this.settings),
      locks: null,
      lockMax: options.lockMax ?? LOCK_POOL_SIZE,
      users: 1,
    };
    shared.set(this.key, this.pools);
  }

  private get pool(): pg.Pool {
    return this.pools.pool;
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

  /**
   * One connection of the store's pool, outside any transaction, with `settings` for its session
   * (statements that cannot run in a transaction: CREATE INDEX CONCURRENTLY). The connection is
   * closed afterwards rather than handed back, so its settings never reach another caller.
   */
  async session<T>(
    work: (session: SqlQueryable) => Promise<T>,
    settings: SqlSessionSettings = {},
  ): Promise<T> {
    const held = await holdConnection(this.pool);
    const { client } = held;
    const session: SqlQueryable = {
      async query<R = SqlRow>(sql: string, params?: unknown[]) {
        const result = await client.query(sql, params as unknown[]);
        return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
      },
    };
    try {
      await applySettings(session, settings);
      return await work(session);
    } finally {
      held.release(new Error("a session's settings are not handed on"));
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /**
   * Session locks live on a pool of their own: a holder also needs a connection for its writes,
   * and lock holders filling the store's pool would wait on each other for ever. The holder of a
   * session may be running the strategy's per-turn work (a model call) for a while, so waiting
   * for it is bounded by the statement timeout rather than the lock timeout.
   */
  async lock(key: string): Promise<() => Promise<void>> {
    this.pools.locks ??= this.newPool(this.pools.lockMax, {
      ...this.settings,
      lock_timeout: this.timeouts.statement,
      application_name: `memlane-session-locks:${process.pid}`,
    });
    const held = await holdConnection(this.pools.locks);
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

  private newPool(max: number, settings: pg.PoolConfig): pg.Pool {
    const pool = guardClients(new pg.Pool({ ...settings, max }));
    // An idle connection dropped by the server must not crash the process; the next query reconnects.
    pool.on("error", () => {});
    return pool;
  }

  /** Gives up this client's share; the pools end when the last client of the process closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (--this.pools.users > 0) return;
    if (shared.get(this.key) === this.pools) shared.delete(this.key);
    await Promise.all([this.pools.pool.end(), this.pools.locks?.end()]);
  }
}

/** Sets each session setting (SET, not SET LOCAL: the session is not in a transaction). */
export async function applySettings(session: SqlQueryable, settings: SqlSessionSettings): Promise<void> {
  const pairs = Object.entries(settings);
  if (pairs.length === 0) return;
  await session.query(
    `SELECT ${pairs.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`).join(", ")}`,
    pairs.flatMap(([name, value]) => [name, String(value)]),
  );
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
