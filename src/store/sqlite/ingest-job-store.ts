/**
 * Ingest jobs in the SQLite store's file (table `ingest_jobs`, schema step 5), on a connection of
 * their own beside the engine's and the keys' (WAL lets them all use the same file). Every write
 * first awaits a forget this process runs on the file (write-gate.ts): a heartbeat that met the
 * forget's lock would sleep in the busy handler on the serving thread.
 */
import Database from "better-sqlite3";
import { ConflictError, MemlaneError, StoreUnavailableError } from "../../core/errors.js";
import {
  changedColumns,
  clearsTranscripts,
  INGEST_JOB_COLUMNS,
  ingestJobValues,
  toIngestJobRecord,
  toPendingIngestJob,
} from "../ingest-job-rows.js";
import type {
  IngestJobChange,
  IngestJobRecord,
  IngestJobStore,
  PendingIngestJob,
} from "../ingest-job-store.js";
import { forgetInTranscripts, type PendingForget } from "../pending-forget.js";
import type { Row } from "../sql/rows.js";
import { MIGRATIONS } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";
import { writesOpen } from "./write-gate.js";

/** The schema step (migrations.ts) that made the ingest_jobs table. */
const INGEST_JOBS_STEP = 5;

/**
 * Opens the ingest jobs of the memlane database at `path`, creating the file and upgrading its
 * schema first when needed (as the memory store would). ":memory:" gives a private in-memory table.
 * @throws {StoreUnavailableError} the file cannot be opened or is not memlane's
 */
export async function openSqliteIngestJobStore(path: string): Promise<SqliteIngestJobStore> {
  // The memory store owns the schema: opening it once applies every migration step.
  if (path !== ":memory:") await new SqliteStore(path).close();
  return new SqliteIngestJobStore(path);
}

/** Ingest jobs in a SQLite file; see the IngestJobStore port for what each method promises. */
export class SqliteIngestJobStore implements IngestJobStore {
  private readonly db: Database.Database;

  /** Prefer `openSqliteIngestJobStore`, which brings the schema up to date first. */
  constructor(readonly path: string) {
    try {
      this.db = new Database(path);
      this.db.pragma("busy_timeout = 5000");
      // A dropped transcript is overwritten in the file, not left behind in a free page.
      this.db.pragma("secure_delete = ON");
      // A private in-memory database holds only this table, made by its own schema step.
      if (path === ":memory:") this.db.exec(MIGRATIONS[INGEST_JOBS_STEP - 1]!);
      this.db.prepare("SELECT 1 FROM ingest_jobs LIMIT 1").get();
    } catch (error) {
      throw new StoreUnavailableError(
        `Cannot open the ingest jobs of ${path}: ${(error as Error).message}`,
        { path },
        error,
      );
    }
  }

  /** Runs a statement; a driver error is the store being unavailable. */
  private run<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw wrap(error, this.path);
    }
  }

  async add(job: PendingIngestJob): Promise<void> {
    await writesOpen(this.path);
    try {
      this.db
        .prepare(`INSERT INTO ingest_jobs (${INGEST_JOB_COLUMNS}, transcripts) VALUES (${marks(11)})`)
        .run(...ingestJobValues(job));
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY")
        throw new ConflictError(`An ingest job "${job.id}" exists already`, { field: "id" });
      throw wrap(error, this.path);
    }
  }

  async update(tenant: string, id: string, owner: string, change: IngestJobChange): Promise<boolean> {
    await writesOpen(this.path);
    const columns = changedColumns(change);
    const sets = columns.map(([column]) => `${column} = ?`);
    if (clearsTranscripts(change)) sets.push("transcripts = NULL");
    const result = this.run(() =>
      this.db
        .prepare(`UPDATE ingest_jobs SET ${sets.join(", ")} WHERE tenant = ? AND id = ? AND owner = ?`)
        .run(...columns.map(([, value]) => value), tenant, id, owner),
    );
    return result.changes > 0;
  }

  async forgetPending(tenant: string, agent: string, forget: PendingForget): Promise<number> {
    await writesOpen(this.path);
    // One transaction: a job that finishes meanwhile keeps no transcripts, and none come back.
    return this.run(() =>
      this.db
        .transaction(() => {
          let changed = 0;
          const rows = this.db
            .prepare(
              "SELECT id, transcripts FROM ingest_jobs WHERE tenant = ? AND state IN ('queued','running') AND transcripts IS NOT NULL",
            )
            .all(tenant) as Row[];
          for (const row of rows) {
            const left = forgetInTranscripts(JSON.parse(String(row.transcripts)), agent, forget);
            if (left === null) continue;
            changed += this.db
              .prepare("UPDATE ingest_jobs SET transcripts = ? WHERE tenant = ? AND id = ?")
              .run(JSON.stringify(left), tenant, row.id).changes;
          }
          return changed;
        })
        .immediate(),
    );
  }

  async heartbeat(owner: string, at: string): Promise<number> {
    await writesOpen(this.path);
    const result = this.run(() =>
      this.db
        .prepare(`UPDATE ingest_jobs SET heartbeat_at = ? WHERE owner = ? AND state IN ('queued','running')`)
        .run(at, owner),
    );
    return result.changes;
  }

  async stale(before: string): Promise<IngestJobRecord[]> {
    const rows = this.run(
      () =>
        this.db
          .prepare(
            `SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs
               WHERE state IN ('queued','running') AND heartbeat_at < ? ORDER BY queued_at, tenant, id`,
          )
          .all(before) as Row[],
    );
    return rows.map(toIngestJobRecord);
  }

  async claim(
    tenant: string,
    id: string,
    owner: string,
    staleBefore: string,
    at: string,
  ): Promise<PendingIngestJob | null> {
    await writesOpen(this.path);
    // One statement: SQLite runs one writer at a time, so of two claims only the first matches.
    const row = this.run(
      () =>
        this.db
          .prepare(
            `UPDATE ingest_jobs SET owner = ?, heartbeat_at = ?
               WHERE tenant = ? AND id = ? AND state IN ('queued','running') AND (owner = ? OR heartbeat_at < ?)
               RETURNING ${INGEST_JOB_COLUMNS}, transcripts`,
          )
          .get(owner, at, tenant, id, owner, staleBefore) as Row | undefined,
    );
    return row ? toPendingIngestJob(row) : null;
  }

  async get(tenant: string, id: string): Promise<IngestJobRecord | null> {
    const row = this.run(
      () =>
        this.db
          .prepare(`SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs WHERE tenant = ? AND id = ?`)
          .get(tenant, id) as Row | undefined,
    );
    return row ? toIngestJobRecord(row) : null;
  }

  async list(tenant: string, limit?: number): Promise<IngestJobRecord[]> {
    const rows = this.run(
      () =>
        this.db
          .prepare(
            `SELECT * FROM (SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs WHERE tenant = ?
               ORDER BY queued_at DESC, id DESC LIMIT ?) ORDER BY queued_at, id`,
          )
          .all(tenant, limit ?? -1) as Row[],
    );
    return rows.map(toIngestJobRecord);
  }

  async prune(tenant: string, keep: number): Promise<number> {
    await writesOpen(this.path);
    const result = this.run(() =>
      this.db
        .prepare(
          `DELETE FROM ingest_jobs WHERE tenant = ? AND state IN ('done','failed') AND id NOT IN
             (SELECT id FROM ingest_jobs WHERE tenant = ? ORDER BY queued_at DESC, id DESC LIMIT ?)`,
        )
        .run(tenant, tenant, keep),
    );
    return result.changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

/** `n` placeholders. */
function marks(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

function wrap(error: unknown, path: string): MemlaneError {
  if (error instanceof MemlaneError) return error;
  return new StoreUnavailableError(`Ingest jobs of ${path}: ${(error as Error).message}`, { path }, error);
}
