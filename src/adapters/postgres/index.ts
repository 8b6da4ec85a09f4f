/**
 * `memlane/postgres`: memlane on Postgres (a server through `pg`, or PGlite in process) — the
 * memory store, the job queue that API replicas and `memlane worker` processes share (pg-boss),
 * and the stores of API keys and upload jobs. Loaded only when used: `openMemlane({ store:
 * "postgres://…" })` imports it on demand, so a SQLite user never loads pg, pg-boss or PGlite.
 */

export { isPostgresSpec } from "../../store/store-spec.js";
export { openPostgresIngestJobStore, PostgresIngestJobStore } from "./ingest-job-store.js";
export { openPostgresKeyStore, PostgresKeyStore } from "./key-store.js";
export {
  type MigrationReport,
  migrateDatabase,
  openMigratedClient,
  openPostgresStore,
  type PostgresClientOptions,
  sqlClientFor,
} from "./open-store.js";
export {
  CONSOLIDATE_QUEUE,
  type JobRun,
  PostgresJobQueue,
  type PostgresQueueOptions,
} from "./postgres-queue.js";
export { PostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
export type { SqlClient, SqlQueryable, SqlResult } from "./sql-client.js";
