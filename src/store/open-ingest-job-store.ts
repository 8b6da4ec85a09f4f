/** The IngestJobStore a store spec names: ingest jobs live in the same database as the memories. */

import { openPostgresIngestJobStore } from "../adapters/postgres/ingest-job-store.js";
import { isPostgresSpec } from "../adapters/postgres/open-store.js";
import type { IngestJobStore } from "./ingest-job-store.js";
import { openSqliteIngestJobStore } from "./sqlite/ingest-job-store.js";

/**
 * Opens the ingest jobs of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite
 * file (`sqlite:<file>`, a path, ":memory:").
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export function openIngestJobStore(spec: string): Promise<IngestJobStore> {
  if (isPostgresSpec(spec)) return openPostgresIngestJobStore(spec);
  return openSqliteIngestJobStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}
