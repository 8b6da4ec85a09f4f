/** The KeyStore a store spec names: API keys live in the same database as the memories. */

import { openPostgresKeyStore } from "../adapters/postgres/key-store.js";
import { isPostgresSpec } from "../adapters/postgres/open-store.js";
import type { KeyStore } from "./key-store.js";
import { openSqliteKeyStore } from "./sqlite/key-store.js";

/**
 * Opens the keys of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite file
 * (`sqlite:<file>`, a path, ":memory:").
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export function openKeyStore(spec: string): Promise<KeyStore> {
  if (isPostgresSpec(spec)) return openPostgresKeyStore(spec);
  return openSqliteKeyStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}
