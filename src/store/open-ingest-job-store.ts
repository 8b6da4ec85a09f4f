/** The IngestJobStore a store spec names: ingest jobs live in the same database as the memories. */

import type { IngestJobStore } from "./ingest-job-store.js";
import { postgresClientOptions } from "./open-key-store.js";
import { loadPostgresAdapter } from "./postgres-adapter.js";
import type { PostgresSettings } from "./postgres-settings.js";
import { openSqliteIngestJobStore } from "./sqlite/ingest-job-store.js";
import { isPostgresSpec } from "./store-spec.js";

/**
 * Opens the ingest jobs of the database `spec` names: `postgres://…`, `pglite:<dir>`, or a SQLite
 * file (`sqlite:<file>`, a path, ":memory:"). `postgres` sets the timeouts of a server's
 * connections; beside an open memory store with the same timeouts, the jobs share its pool.
 * @throws {StoreUnavailableError} the database cannot be opened or is not memlane's
 */
export async function openIngestJobStore(spec: string, postgres?: PostgresSettings): Promise<IngestJobStore> {
  if (isPostgresSpec(spec))
    return (await loadPostgresAdapter(spec)).openPostgresIngestJobStore(
      spec,
      "memlane",
      postgresClientOptions(postgres),
    );
  return openSqliteIngestJobStore(spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec);
}
