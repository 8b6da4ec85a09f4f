/**
 * How memlane uses a Postgres server's connections: the timeouts every connection starts with,
 * and the budget of connections one process may open, split among its pools. Declared in the
 * product, beside the config that takes them (`openMemlane({ postgres })`), so the product can name
 * and split them without loading the adapter (memlane/postgres).
 */
import { InvalidInputError } from "../core/errors.js";

/** Timeouts and the connection budget of one process on a Postgres server. */
export interface PostgresSettings {
  /**
   * Longest a statement may run, in milliseconds, before the server cancels it (`statement_timeout`);
   * 0 turns the limit off. Default 30,000: far above any statement memlane sends to a healthy
   * server (a cold load of a 100,000-memory scope reads in a few seconds), short enough that a
   * stuck statement frees its connection before a client gives up on the request.
   */
  statementTimeoutMs?: number;
  /**
   * Longest a statement waits for a lock held elsewhere, in milliseconds (`lock_timeout`); 0 turns
   * the limit off. Default 5,000: memlane's own writers hold a scope's row for one short
   * transaction (milliseconds), so a wait past 5 s means something else holds the table or row
   * (a migration, a long transaction, a manual `LOCK`), and the request fails with
   * STORE_UNAVAILABLE instead of queueing behind it.
   */
  lockTimeoutMs?: number;
  /**
   * Connections this process opens to the server at most, over all its pools (the store's, its
   * session locks', the job queue's). Default 20: two API replicas and two workers open at most
   * 80, under Postgres's default `max_connections` of 100 (97 for non-superusers).
   */
  maxConnections?: number;
}

export const POSTGRES_DEFAULTS: Required<PostgresSettings> = {
  statementTimeoutMs: 30_000,
  lockTimeoutMs: 5_000,
  maxConnections: 20,
};

/** The pool sizes one process's budget splits into. */
export interface ConnectionSplit {
  /** The store's pool, shared in the process by the memory store, the API keys and the upload jobs. */
  store: number;
  /** Connections that hold sessions against appends by other replicas (one per turn being placed). */
  sessionLocks: number;
  /** pg-boss's own pool (sending, fetching, completing jobs, maintenance). */
  queue: number;
  /** The queue's scope locks: one per job running here, or one for setup in a process that only sends. */
  queueLocks: number;
}

/** The queue's share: pg-boss's statements are short, and a few connections serve every loop. */
const QUEUE_POOL = 3;

/**
 * Splits a process's connection budget among its pools. With a Postgres queue, its scope locks
 * take what the queue holds (one per job at once, or one for setup when the process only sends)
 * and pg-boss takes 3; of the rest, a third (at least one) holds sessions for appends and the
 * others serve the store, its keys and its upload jobs.
 * @throws {InvalidInputError} a budget too small for the queue's concurrency (`details.field`)
 */
export function splitConnections(
  budget: number = POSTGRES_DEFAULTS.maxConnections,
  queue?: { work: boolean; concurrency: number },
): ConnectionSplit {
  const queueLocks = queue ? (queue.work ? Math.max(1, queue.concurrency) : 1) : 0;
  const queuePool = queue ? QUEUE_POOL : 0;
  const rest = budget - queueLocks - queuePool;
  if (!Number.isInteger(budget) || rest < 2)
    throw new InvalidInputError(
      `A Postgres connection budget of ${budget} leaves the store fewer than 2 connections` +
        (queue
          ? ` beside the job queue's ${queueLocks + queuePool} (concurrency ${queue.concurrency})`
          : "") +
        `: give at least ${queueLocks + queuePool + 2}`,
      { field: "maxConnections" },
    );
  const sessionLocks = Math.max(1, Math.floor(rest / 3));
  return { store: rest - sessionLocks, sessionLocks, queue: queuePool, queueLocks };
}

/**
 * Settings with their defaults filled in, checked: whole milliseconds from 0 (off), and a budget
 * of at least 3.
 * @throws {InvalidInputError} a value that is not such a number (`details.field`)
 */
export function postgresSettings(given: PostgresSettings = {}): Required<PostgresSettings> {
  const out = { ...POSTGRES_DEFAULTS };
  for (const field of ["statementTimeoutMs", "lockTimeoutMs", "maxConnections"] as const) {
    const value = given[field];
    if (value === undefined) continue;
    const least = field === "maxConnections" ? 3 : 0;
    if (!Number.isInteger(value) || value < least)
      throw new InvalidInputError(
        `postgres.${field} must be a whole number of at least ${least}, not ${value}`,
        {
          field,
        },
      );
    out[field] = value;
  }
  return out;
}
