/** The KeyStore a store spec names: API keys live in the same database as the memories. */

import type { KeyStore } from "./key-store.js";
import { loadPostgresAdapter } from "./postgres-adapter.js";
import { openSqliteKeyStore } from "./sqlite/key-store.js";
import { isPostgresSpec } from "./store-spec.js";

/**
 * Opens the keys of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite file
 * (`sqlite:<file>`, a path, ":memory:").
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export async function openKeyStore(spec: string): Promise<KeyStore> {
  if (isPostgresSpec(spec)) return (await loadPostgresAdapter(spec)).openPostgresKeyStore(spec);
  return openSqliteKeyStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}
