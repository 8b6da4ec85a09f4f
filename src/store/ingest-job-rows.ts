/**
 * The `ingest_jobs` rows both SQL stores keep (same columns, JSON as text): a record to a row and
 * back, and a change to the columns it sets.
 */
import {
  type IngestJobChange,
  type IngestJobRecord,
  isFinished,
  type PendingIngestJob,
} from "./ingest-job-store.js";

/** Every column but the transcripts: what reading a job's state needs. */
export const INGEST_JOB_COLUMNS =
  "tenant, id, state, error, queued_at, started_at, finished_at, reports, owner, heartbeat_at";

/** A new job's values for `INGEST_JOB_COLUMNS` and then `transcripts`, in order. */
export function ingestJobValues(job: PendingIngestJob): unknown[] {
  return [
    job.tenant,
    job.id,
    job.state,
    job.error,
    job.queuedAt,
    job.startedAt,
    job.finishedAt,
    job.reports === null ? null : JSON.stringify(job.reports),
    job.owner,
    job.heartbeatAt,
    JSON.stringify(job.transcripts),
  ];
}

/** The columns a change sets with their values, in order; `transcripts` is cleared apart (see `clearsTranscripts`). */
export function changedColumns(change: IngestJobChange): [string, unknown][] {
  const set: [string, unknown][] = [["state", change.state]];
  if (change.error !== undefined) set.push(["error", change.error]);
  if (change.startedAt !== undefined) set.push(["started_at", change.startedAt]);
  if (change.finishedAt !== undefined) set.push(["finished_at", change.finishedAt]);
  if (change.reports !== undefined)
    set.push(["reports", change.reports === null ? null : JSON.stringify(change.reports)]);
  return set;
}

/** A finished job keeps no transcripts (see `IngestJobStore.update`). */
export function clearsTranscripts(change: IngestJobChange): boolean {
  return isFinished(change.state);
}

export function toIngestJobRecord(row: Record<string, unknown>): IngestJobRecord {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    tenant: String(row.tenant),
    id: String(row.id),
    state: row.state as IngestJobRecord["state"],
    error: text(row.error),
    queuedAt: String(row.queued_at),
    startedAt: text(row.started_at),
    finishedAt: text(row.finished_at),
    reports: row.reports === null || row.reports === undefined ? null : JSON.parse(String(row.reports)),
    owner: String(row.owner),
    heartbeatAt: String(row.heartbeat_at),
  };
}

/** An unfinished job's row (its columns and `transcripts`) as a record with its transcripts. */
export function toPendingIngestJob(row: Record<string, unknown>): PendingIngestJob {
  const transcripts =
    row.transcripts === null || row.transcripts === undefined ? [] : JSON.parse(String(row.transcripts));
  return { ...toIngestJobRecord(row), transcripts };
}
