/**
 * The options of the job queue that several processes share through Postgres, declared in the
 * product beside the config that takes them (`openMemlane({ queue })`), so the product names them
 * without loading the adapter that implements the queue (memlane/postgres).
 */
import type { Logger } from "../logger.js";

export interface PostgresQueueOptions {
  /** The database holding the queue (`postgres://…`); pg-boss creates its tables there once. */
  url: string;
  /** Run jobs in this process too (default true); false only enqueues (API replicas). */
  work?: boolean;
  /** Jobs this process runs at once (default 1). */
  concurrency?: number;
  /**
   * Most jobs of one tenant running at once, across every worker of the queue. Default: all but
   * one of the places the working processes connected now offer (the sum of their
   * `concurrency`), at least 1, so one tenant's backlog leaves a place for the others.
   */
  perTenant?: number;
  /**
   * A job running longer than this is taken for lost (its worker died) and tried again; keep it
   * well above the slowest consolidation. Default 900 s.
   */
  jobTimeoutSeconds?: number;
  /** Tries after the first, for a failed consolidation or a lost worker. Default 2. */
  retryLimit?: number;
  /** Delay before the first retry in seconds; later ones double it, with jitter. Default 10. */
  retryDelaySeconds?: number;
  /** How often an idle worker looks for jobs and job states are read, in seconds. Default 1. */
  pollSeconds?: number;
  /** How often lost jobs are looked for, in seconds (one process per interval does it). Default 30. */
  maintenanceSeconds?: number;
  /** Postgres schema of pg-boss's tables. Default "memlane_jobs". */
  schema?: string;
  /** Connections this process opens at most (default 4). */
  maxConnections?: number;
  /** Where errors of the background loops go. Default stderr. */
  logger?: Logger;
}
