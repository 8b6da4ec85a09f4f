/**
 * The IngestJobStore port: transcript uploads of `memlane serve` as durable jobs. An upload is
 * recorded with its validated transcripts before the server acknowledges it, every change of
 * state is recorded as it happens, and the unfinished jobs of a server that stopped are taken
 * over by the next one to look, so an acknowledged upload survives a killed process. Running jobs
 * is the service's work (adapters/server/ingest-jobs.ts); a store keeps them and arbitrates who runs one.
 *
 * Several servers may share one database (API replicas on Postgres). Each unfinished job has an
 * owner, the server running or queueing it, which renews a heartbeat on its jobs; a job whose
 * heartbeat is older than a lease belongs to a server that is gone, and `claim` hands it to one
 * other server only. Changes are recorded only by the owner, so a server that lost a job cannot
 * overwrite what its new owner records.
 */

import type { PendingForget } from "./pending-forget.js";

export type IngestJobState = "queued" | "running" | "done" | "failed";

/** One stored ingest job, without its transcripts. */
export interface IngestJobRecord {
  /** The tenant of the key that uploaded it; it leads the key, as in every memlane table. */
  tenant: string;
  id: string;
  state: IngestJobState;
  /** Why a failed job failed; null otherwise. */
  error: string | null;
  queuedAt: string;
  /** When it last started running (again, after a takeover); null while queued. */
  startedAt: string | null;
  finishedAt: string | null;
  /** Once done: one ingest report per transcript (the engine's `IngestReport`, as JSON). */
  reports: unknown[] | null;
  /** The server that queued or runs it (an id it chose). */
  owner: string;
  /** When its owner last said it is alive. */
  heartbeatAt: string;
}

/** An unfinished job with the transcripts it still has to store. */
export interface PendingIngestJob extends IngestJobRecord {
  /** The uploaded transcripts, already validated. */
  transcripts: unknown[];
}

/** What changes when a job starts or finishes. */
export interface IngestJobChange {
  state: IngestJobState;
  error?: string | null;
  startedAt?: string | null;
  finishedAt?: string | null;
  reports?: unknown[] | null;
}

/** Where ingest jobs live: beside the memories, in the same database. */
export interface IngestJobStore {
  /**
   * Applies a forget to the transcripts the tenant's unfinished jobs still have to store: the
   * agent's forgotten session goes, or a person's turns and the replies that answered them
   * (`forgetInTranscripts`), so neither a takeover nor a restart stores them again. Finished
   * jobs hold no transcripts. How many jobs changed.
   */
  forgetPending(tenant: string, agent: string, forget: PendingForget): Promise<number>;
  /** Records a new job with its transcripts. @throws {ConflictError} the tenant has a job with this id */
  add(job: PendingIngestJob): Promise<void>;
  /**
   * Records a change of state made by the job's owner; false when the tenant has no such job or
   * `owner` no longer holds it. A job that becomes `done` or `failed` drops its transcripts: what
   * it stored is in the memory store, where `forget` can erase it, and a copy kept here would
   * escape that.
   */
  update(tenant: string, id: string, owner: string, change: IngestJobChange): Promise<boolean>;
  /**
   * Renews the heartbeat of every unfinished job `owner` holds; how many. `tenants`, when given,
   * are the tenants of those jobs: the statement then names them (a sharded database, Citus,
   * sends it to their shards only).
   */
  heartbeat(owner: string, at: string, tenants?: string[]): Promise<number>;
  /** Every tenant's unfinished jobs whose heartbeat is older than `before`, oldest first. */
  stale(before: string): Promise<IngestJobRecord[]>;
  /**
   * Makes `owner` the owner of an unfinished job whose heartbeat is older than `staleBefore` (or
   * that `owner` holds already), with its heartbeat at `at`; the job with its transcripts, or
   * null when it finished or another server holds it. Of servers claiming one job together, one
   * gets it.
   */
  claim(
    tenant: string,
    id: string,
    owner: string,
    staleBefore: string,
    at: string,
  ): Promise<PendingIngestJob | null>;
  /** The tenant's job with this id; null when there is none (another tenant's included). */
  get(tenant: string, id: string): Promise<IngestJobRecord | null>;
  /** The tenant's `limit` most recent jobs (all when not given), oldest first. */
  list(tenant: string, limit?: number): Promise<IngestJobRecord[]>;
  /** Deletes the tenant's finished jobs beyond its `keep` most recent jobs; how many went. */
  prune(tenant: string, keep: number): Promise<number>;
  close(): Promise<void>;
}

/** True for the states a job ends in. */
export function isFinished(state: IngestJobState): boolean {
  return state === "done" || state === "failed";
}
