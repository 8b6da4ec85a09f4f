/** Store specs that name Postgres: `postgres://…` / `postgresql://…` (a server), `pglite:<dir>` / `pglite:memory`. */
import { InvalidInputError } from "../../core/errors.js";
import { isPostgresSpec } from "../../store/store-spec.js";
import { migrate } from "./migrations.js";
import { storeError } from "./pg-errors.js";
import { PgPoolClient } from "./pg-pool-client.js";
import { PgliteClient } from "./pglite-client.js";
import { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
import type { SqlClient } from "./sql-client.js";
import { enableVectors } from "./vector-index.js";

/**
 * How a client for a Postgres server is made: the timeouts of its connections and its pool sizes
 * (by default the store's share of the default budget, `splitConnections()`).
 */
export interface PostgresClientOptions {
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  /** Connections of the store's pool. */
  poolSize?: number;
  /** Connections that hold sessions against appends by other processes. */
  sessionLockPoolSize?: number;
}

/**
 * A connection for a spec (no I/O yet). On a server, clients of one database, schema and timeouts
 * share this process's pool; PGlite ignores the options (one process, one session, no waits on
 * other processes).
 */
export function sqlClientFor(
  spec: string,
  schema = "memlane",
  options: PostgresClientOptions = {},
): SqlClient {
  if (spec.startsWith("pglite:")) {
    const dir = spec.slice("pglite:".length);
    if (!dir)
      throw new InvalidInputError(`Store "${spec}" names no directory; use pglite:<dir> or pglite:memory`);
    return new PgliteClient(dir === "memory" ? ":memory:" : dir, schema);
  }
  if (!isPostgresSpec(spec)) throw new InvalidInputError(`Not a Postgres store: "${spec}"`);
  return new PgPoolClient(spec, {
    schema,
    max: options.poolSize,
    lockMax: options.sessionLockPoolSize,
    statementTimeoutMs: options.statementTimeoutMs,
    lockTimeoutMs: options.lockTimeoutMs,
  });
}

/**
 * Opens the Postgres store a spec names. Synchronous: the connection is made and the schema
 * migrated on first use.
 */
export function openPostgresStore(spec: string, options: PostgresStoreOptions = {}): PostgresStore {
  return new PostgresStore(sqlClientFor(spec, options.schema, options), options);
}

/**
 * A connection for a spec with the schema brought up to date: what the stores beside the memory
 * store (API keys, ingest jobs) open with. The client is closed again when migrating fails.
 * @throws {StoreUnavailableError} the database cannot be reached or is not memlane's
 */
export async function openMigratedClient(
  spec: string,
  schema = "memlane",
  options: PostgresClientOptions = {},
): Promise<SqlClient> {
  const client = sqlClientFor(spec, schema, options);
  try {
    await migrate(client, schema, { lockTimeoutMs: options.lockTimeoutMs });
  } catch (error) {
    await client.close();
    throw storeError(error, client.label);
  }
  return client;
}

/** What `migrateDatabase` found and did. */
export interface MigrationReport {
  /** The store as named in messages (no password). */
  database: string;
  schema: string;
  /** The schema version before, and now. */
  from: number;
  to: number;
  /** The pgvector release used for memory search, or null (exact search in the process). */
  pgvector: string | null;
  /** Whether pgvector's iterative index scans are used (0.8 and newer). */
  iterativeScan: boolean;
}

/**
 * The explicit migration step (`memlane migrate`): brings memlane's schema up to date and makes
 * pgvector's column ready (copying vectors stored before), under the advisory locks every process
 * shares. Run it before rolling out a new memlane; processes that start on a current schema then
 * only read it.
 * @throws {StoreUnavailableError} the database cannot be reached, is newer, or is not memlane's
 */
export async function migrateDatabase(
  spec: string,
  options: { schema?: string; vectorSearch?: "auto" | "exact" } & PostgresClientOptions = {},
): Promise<MigrationReport> {
  const schema = options.schema ?? "memlane";
  // Its own small pool: the migration holds one connection, the column's backfill another.
  const client = sqlClientFor(spec, schema, { ...options, poolSize: options.poolSize ?? 2 });
  try {
    const { from, to } = await migrate(client, schema, { lockTimeoutMs: options.lockTimeoutMs });
    const pgvector =
      options.vectorSearch === "exact"
        ? null
        : await enableVectors(client, { lockTimeoutMs: options.lockTimeoutMs, backfill: "wait" });
    return {
      database: client.label,
      schema,
      from,
      to,
      pgvector: pgvector?.version ?? null,
      iterativeScan: pgvector?.iterativeScan ?? false,
    };
  } catch (error) {
    throw storeError(error, client.label);
  } finally {
    await client.close();
  }
}
