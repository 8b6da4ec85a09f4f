/** Postgres errors as memlane's typed errors. */
import { ConflictError, MemlaneError, StoreUnavailableError } from "../../core/errors.js";

interface PgLikeError {
  code?: string;
  detail?: string;
  message?: string;
}

/** Integrity violations (a duplicate key, a missing parent row): the write collides with what is stored. */
export function isConstraintError(error: unknown): boolean {
  return String((error as PgLikeError).code ?? "").startsWith("23");
}

/**
 * A ConflictError for a constraint violation, or the error unchanged. The message is the
 * caller's, as on SQLite: Postgres's own detail names constraints, columns and key values, which
 * are the schema's business, not the client's (the original error stays as the cause).
 */
export function conflictOr(error: unknown, message: string, details: Record<string, unknown> = {}): Error {
  if (!isConstraintError(error)) return error as Error;
  return new ConflictError(message, details, error);
}

/** SQLSTATEs of a statement the server gave up on: its lock wait, or its run, took too long. */
const LOCK_NOT_AVAILABLE = "55P03";
const QUERY_CANCELED = "57014";

/** Whether the server refused a lock within `lock_timeout` (55P03): something else holds it. */
export function isLockTimeout(error: unknown): boolean {
  return (error as PgLikeError | undefined)?.code === LOCK_NOT_AVAILABLE;
}

/**
 * Errors that mean the database cannot be reached or used (refused connection, unknown database,
 * failed login, server shutting down, a client whose connection broke and is "not queryable", a
 * lock held elsewhere past `lock_timeout`, a statement cancelled at `statement_timeout`) become
 * StoreUnavailableError (HTTP 503, `details.reason` says "lock-timeout" or "statement-timeout"
 * for the last two); others pass unchanged.
 */
export function storeError(error: unknown, label: string): Error {
  if (error instanceof MemlaneError) return error;
  const code = String((error as PgLikeError).code ?? "");
  const message = (error as PgLikeError).message ?? String(error);
  // Nothing was changed: the statement's transaction was rolled back, and trying again later may
  // find the lock free. Said as what it is, so the operator looks for the holder.
  if (code === LOCK_NOT_AVAILABLE || code === QUERY_CANCELED) {
    const reason = code === LOCK_NOT_AVAILABLE ? "lock-timeout" : "statement-timeout";
    return new StoreUnavailableError(
      reason === "lock-timeout"
        ? `The Postgres database ${label} is busy: a lock held elsewhere was not granted within lock_timeout (${message}); nothing was changed`
        : `The Postgres database ${label} did not finish a statement within statement_timeout (${message}); nothing was changed`,
      { code, reason },
      error,
    );
  }
  const unreachable =
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH)$/.test(code) ||
    /^(08|28|3D|53|57P)/.test(code) ||
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|not queryable|Cannot use a pool after calling end|socket hang up/i.test(
      message,
    );
  if (unreachable)
    return new StoreUnavailableError(
      `Cannot use the Postgres database ${label}: ${message}`,
      { code },
      error,
    );
  return error as Error;
}
