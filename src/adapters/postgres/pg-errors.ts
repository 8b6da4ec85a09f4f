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

/**
 * Errors that mean the database cannot be reached or used (refused connection, unknown database,
 * failed login, server shutting down, a client whose connection broke and is "not queryable")
 * become StoreUnavailableError; others pass unchanged.
 */
export function storeError(error: unknown, label: string): Error {
  if (error instanceof MemlaneError) return error;
  const code = String((error as PgLikeError).code ?? "");
  const message = (error as PgLikeError).message ?? String(error);
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
