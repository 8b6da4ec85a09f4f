/** The IngestJobStore a store spec names: ingest jobs live in the same database as the memories. */

import type { IngestJobStore } from "./ingest-job-store.js";
import { loadPostgresAdapter } from "./postgres-adapter.js";
import { openSqliteIngestJobStore } from "./sqlite/ingest-job-store.js";
import { isPostgresSpec } from "./store-spec.js";

/**
 * Opens the ingest jobs of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite
 * file (`sqlite:<file>`, a path, ":memory:").
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export async function openIngestJobStore(spec: string): Promise<IngestJobStore> {
  if (isPostgresSpec(spec)) return (await loadPostgresAdapter(spec)).openPostgresIngestJobStore(spec);
  return openSqliteIngestJobStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}
