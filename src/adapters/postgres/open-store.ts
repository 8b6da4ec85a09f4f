/** Store specs that name Postgres: `postgres://…` / `postgresql://…` (a server), `pglite:<dir>` / `pglite:memory`. */
import { InvalidInputError } from "../../core/errors.js";
import { isPostgresSpec } from "../../store/store-spec.js";
import { migrate } from "./migrations.js";
import { storeError } from "./pg-errors.js";
import { PgPoolClient } from "./pg-pool-client.js";
import { PgliteClient } from "./pglite-client.js";
import { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
import type { SqlClient } from "./sql-client.js";

/** A connection for a spec (no I/O yet). */
export function sqlClientFor(spec: string, schema = "memlane"): SqlClient {
  if (spec.startsWith("pglite:")) {
    const dir = spec.slice("pglite:".length);
    if (!dir)
      throw new InvalidInputError(`Store "${spec}" names no directory; use pglite:<dir> or pglite:memory`);
    return new PgliteClient(dir === "memory" ? ":memory:" : dir, schema);
  }
  if (!isPostgresSpec(spec)) throw new InvalidInputError(`Not a Postgres store: "${spec}"`);
  return new PgPoolClient(spec, { schema });
}

/**
 * Opens the Postgres store a spec names. Synchronous: the connection is made and the schema
 * migrated on first use.
 */
export function openPostgresStore(spec: string, options: PostgresStoreOptions = {}): PostgresStore {
  return new PostgresStore(sqlClientFor(spec, options.schema), options);
}

/**
 * A connection for a spec with the schema brought up to date: what the stores beside the memory
 * store (API keys, ingest jobs) open with. The client is closed again when migrating fails.
 * @throws {StoreUnavailableError} the database cannot be reached or is not memlane's
 */
export async function openMigratedClient(spec: string, schema = "memlane"): Promise<SqlClient> {
  const client = sqlClientFor(spec, schema);
  try {
    await migrate(client, schema);
  } catch (error) {
    await client.close();
    throw storeError(error, client.label);
  }
  return client;
}
