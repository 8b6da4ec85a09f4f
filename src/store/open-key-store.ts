/** The KeyStore a store spec names: API keys live in the same database as the memories. */

import type { KeyStore } from "./key-store.js";
import { loadPostgresAdapter } from "./postgres-adapter.js";
import { type PostgresSettings, postgresSettings, splitConnections } from "./postgres-settings.js";
import { openSqliteKeyStore } from "./sqlite/key-store.js";
import { isPostgresSpec } from "./store-spec.js";

/**
 * Opens the keys of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite file
 * (`sqlite:<file>`, a path, ":memory:"). `postgres` sets the timeouts of a server's connections;
 * in a process whose memory store is open on the same database with the same timeouts, the keys
 * share its pool.
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export async function openKeyStore(spec: string, postgres?: PostgresSettings): Promise<KeyStore> {
  if (isPostgresSpec(spec))
    return (await loadPostgresAdapter(spec)).openPostgresKeyStore(
      spec,
      "memlane",
      postgresClientOptions(postgres),
    );
  return openSqliteKeyStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}

/**
 * The client options of a store beside the memory store (keys, upload jobs): the timeouts, and
 * the store's share of the budget, used only when no pool of the process is open yet.
 */
export function postgresClientOptions(postgres?: PostgresSettings) {
  const settings = postgresSettings(postgres);
  const split = splitConnections(settings.maxConnections);
  return {
    statementTimeoutMs: settings.statementTimeoutMs,
    lockTimeoutMs: settings.lockTimeoutMs,
    poolSize: split.store,
    sessionLockPoolSize: split.sessionLocks,
  };
}
