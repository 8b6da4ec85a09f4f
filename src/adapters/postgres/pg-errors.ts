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

/** A ConflictError for a constraint violation, or the error unchanged. */
export function conflictOr(error: unknown, message: string, details: Record<string, unknown> = {}): Error {
  if (!isConstraintError(error)) return error as Error;
  const detail = (error as PgLikeError).detail;
  return new ConflictError(detail ? `${message} (${detail})` : message, details);
}

/**
 * Errors that mean the database cannot be reached or used (refused connection, unknown database,
 * failed login, server shutting down) become StoreUnavailableError; others pass unchanged.
 */
export function storeError(error: unknown, label: string): Error {
  if (error instanceof MemlaneError) return error;
  const code = String((error as PgLikeError).code ?? "");
  const message = (error as PgLikeError).message ?? String(error);
  const unreachable =
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH)$/.test(code) ||
    /^(08|28|3D|53|57P)/.test(code) ||
    /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(message);
  if (unreachable)
    return new StoreUnavailableError(
      `Cannot use the Postgres database ${label}: ${message}`,
      { code },
      error,
    );
  return error as Error;
}
