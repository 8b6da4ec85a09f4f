/**
 * Ingest jobs in the Postgres store's database (table `ingest_jobs`, schema step 3), on a
 * connection of their own. Every statement names the tenant (`heartbeat` the tenants of the jobs
 * the server holds) but `stale`, the sweep a server runs every few seconds over the few unfinished
 * jobs of all tenants (under Citus, a query of every shard).
 */
import { ConflictError } from "../../core/errors.js";
import {
  changedColumns,
  clearsTranscripts,
  INGEST_JOB_COLUMNS,
  ingestJobValues,
  toIngestJobRecord,
  toPendingIngestJob,
} from "../../store/ingest-job-rows.js";
import type {
  IngestJobChange,
  IngestJobRecord,
  IngestJobStore,
  PendingIngestJob,
} from "../../store/ingest-job-store.js";
import { forgetInTranscripts, type PendingForget } from "../../store/pending-forget.js";
import { openMigratedClient, type PostgresClientOptions } from "./open-store.js";
import { isConstraintError, storeError } from "./pg-errors.js";
import type { SqlClient, SqlRow } from "./sql-client.js";

/**
 * Opens the ingest jobs of the Postgres database a spec names (`postgres://…`, `pglite:<dir>`),
 * creating or upgrading memlane's schema first (as the memory store would). In a process that has
 * the store open with the same timeouts, the jobs share its pool.
 * @throws {StoreUnavailableError} the database cannot be reached or is not memlane's
 */
export async function openPostgresIngestJobStore(
  spec: string,
  schema = "memlane",
  options: PostgresClientOptions = {},
): Promise<PostgresIngestJobStore> {
  return new PostgresIngestJobStore(await openMigratedClient(spec, schema, options));
}

/** Ingest jobs in Postgres or PGlite; see the IngestJobStore port for what each method promises. */
export class PostgresIngestJobStore implements IngestJobStore {
  /** Prefer `openPostgresIngestJobStore`, which brings the schema up to date first. Owns `client`. */
  constructor(private readonly client: SqlClient) {}

  private async query(sql: string, params: unknown[] = []): Promise<{ rows: SqlRow[]; rowCount: number }> {
    try {
      return await this.client.query(sql, params);
    } catch (error) {
      throw storeError(error, this.client.label);
    }
  }

  async add(job: PendingIngestJob): Promise<void> {
    const values = ingestJobValues(job);
    try {
      await this.client.query(
        `INSERT INTO ingest_jobs (${INGEST_JOB_COLUMNS}, transcripts) VALUES (${values.map((_, i) => `$${i + 1}`).join(", ")})`,
        values,
      );
    } catch (error) {
      if (isConstraintError(error))
        throw new ConflictError(`An ingest job "${job.id}" exists already`, { field: "id" });
      throw storeError(error, this.client.label);
    }
  }

  async update(tenant: string, id: string, owner: string, change: IngestJobChange): Promise<boolean> {
    const columns = changedColumns(change);
    const sets = columns.map(([column], i) => `${column} = $${i + 4}`);
    if (clearsTranscripts(change)) sets.push("transcripts = NULL");
    const result = await this.query(
      `UPDATE ingest_jobs SET ${sets.join(", ")} WHERE tenant = $1 AND id = $2 AND owner = $3`,
      [tenant, id, owner, ...columns.map(([, value]) => value)],
    );
    return result.rowCount > 0;
  }

  async forgetPending(tenant: string, agent: string, forget: PendingForget): Promise<number> {
    let changed = 0;
    const { rows } = await this.query(
      "SELECT id, transcripts FROM ingest_jobs WHERE tenant = $1 AND state IN ('queued','running') AND transcripts IS NOT NULL",
      [tenant],
    );
    for (const row of rows) {
      let before = String(row.transcripts);
      // Written only over the text it was made from: a concurrent forget of the same job is read
      // again and applied on top, and a job that finished meanwhile (transcripts dropped) is left.
      for (;;) {
        const left = forgetInTranscripts(JSON.parse(before), agent, forget);
        if (left === null) break;
        const result = await this.query(
          "UPDATE ingest_jobs SET transcripts = $3 WHERE tenant = $1 AND id = $2 AND transcripts = $4",
          [tenant, row.id, JSON.stringify(left), before],
        );
        if (result.rowCount > 0) {
          changed++;
          break;
        }
        const again = await this.query(
          "SELECT transcripts FROM ingest_jobs WHERE tenant = $1 AND id = $2 AND state IN ('queued','running') AND transcripts IS NOT NULL",
          [tenant, row.id],
        );
        if (!again.rows[0]) break;
        before = String(again.rows[0].transcripts);
      }
    }
    return changed;
  }

  async heartbeat(owner: string, at: string, tenants?: string[]): Promise<number> {
    const result = tenants
      ? await this.query(
          "UPDATE ingest_jobs SET heartbeat_at = $2 WHERE tenant = ANY($3) AND owner = $1 AND state IN ('queued','running')",
          [owner, at, tenants],
        )
      : await this.query(
          "UPDATE ingest_jobs SET heartbeat_at = $2 WHERE owner = $1 AND state IN ('queued','running')",
          [owner, at],
        );
    return result.rowCount;
  }

  async stale(before: string): Promise<IngestJobRecord[]> {
    const { rows } = await this.query(
      `SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs
         WHERE state IN ('queued','running') AND heartbeat_at < $1 ORDER BY queued_at, tenant, id`,
      [before],
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
    // Two servers claiming together: the second waits for the first's row lock, then finds the
    // heartbeat fresh and the owner not its own, and matches nothing.
    const { rows } = await this.query(
      `UPDATE ingest_jobs SET owner = $3, heartbeat_at = $5
         WHERE tenant = $1 AND id = $2 AND state IN ('queued','running') AND (owner = $3 OR heartbeat_at < $4)
         RETURNING ${INGEST_JOB_COLUMNS}, transcripts`,
      [tenant, id, owner, staleBefore, at],
    );
    return rows[0] ? toPendingIngestJob(rows[0]) : null;
  }

  async get(tenant: string, id: string): Promise<IngestJobRecord | null> {
    const { rows } = await this.query(
      `SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs WHERE tenant = $1 AND id = $2`,
      [tenant, id],
    );
    return rows[0] ? toIngestJobRecord(rows[0]) : null;
  }

  async list(tenant: string, limit?: number): Promise<IngestJobRecord[]> {
    const { rows } = await this.query(
      `SELECT * FROM (SELECT ${INGEST_JOB_COLUMNS} FROM ingest_jobs WHERE tenant = $1
         ORDER BY queued_at DESC, id DESC LIMIT $2) recent ORDER BY queued_at, id`,
      [tenant, limit ?? null],
    );
    return rows.map(toIngestJobRecord);
  }

  async prune(tenant: string, keep: number): Promise<number> {
    const result = await this.query(
      `DELETE FROM ingest_jobs WHERE tenant = $1 AND state IN ('done','failed') AND id NOT IN
         (SELECT id FROM ingest_jobs WHERE tenant = $1 ORDER BY queued_at DESC, id DESC LIMIT $2)`,
      [tenant, keep],
    );
    return result.rowCount;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
