/**
 * Errors over HTTP: every typed MemlaneError code has one status, and every error answers a JSON
 * body `{ error: { code, message, field?, details? } }` naming the field when one is to blame.
 * Anything unexpected is a 500 that says nothing of the server's insides.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { type ErrorCode, InvalidInputError, isMemlaneError } from "../../core/errors.js";
import { describeIssue, inputIssues } from "../../engine/api.js";
import type { Logger } from "../../engine/logger.js";

/** The HTTP status of each error code; documented in docs/errors.md. */
export const HTTP_STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STORE_UNAVAILABLE: 503,
  MODEL_UNAVAILABLE: 503,
  MODEL_TIMEOUT: 504,
  SCHEMA_MISMATCH: 502,
  UNSUPPORTED: 501,
  BUSY: 429,
};

/** The JSON body of an error answer. */
export interface ErrorBody {
  error: { code: string; message: string; field?: string; details?: Record<string, unknown> };
}

/** An error answer with the given code, status and message. */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details?: Record<string, unknown>,
): Response {
  const field = typeof details?.field === "string" ? details.field : undefined;
  const body: ErrorBody = {
    error: { code, message, ...(field ? { field } : {}), ...(details ? { details } : {}) },
  };
  return c.json(body, status);
}

/** `app.onError`: typed errors by their code, anything else as a bare 500 (logged). */
export function errorHandler(logger: Logger) {
  return (error: Error, c: Context): Response => {
    if (isMemlaneError(error)) {
      // An unreachable store is the operator's to see, in one line (the cause's client object is not logged).
      if (error.code === "STORE_UNAVAILABLE")
        logger.warn(`store unavailable on ${c.req.method} ${c.req.path}: ${error.message}`);
      // A refusal that passes (a tenant past its bound, a write another call is still storing)
      // says when to come back, as HTTP clients and proxies expect.
      const after = error.details.retryAfterSeconds;
      if (typeof after === "number") c.header("Retry-After", String(after));
      return errorResponse(c, HTTP_STATUS[error.code], error.code, error.message, error.details);
    }
    // hono's own refusals: a body that is not JSON (400), and the like.
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode;
      const code =
        status === 400 ? "INVALID_INPUT" : status === 415 ? "UNSUPPORTED_MEDIA_TYPE" : "HTTP_ERROR";
      const message =
        status === 415 ? "The body must be JSON (Content-Type: application/json)" : error.message;
      return errorResponse(c, status, code, message, { field: "body" });
    }
    // The name, code and stack, not the error object: a driver's error carries its whole client.
    logger.error(`unexpected error on ${c.req.method} ${c.req.path}: ${error?.message ?? String(error)}`, {
      name: error?.name,
      code: (error as { code?: unknown })?.code,
      stack: error?.stack,
    });
    return errorResponse(c, 500, "UNEXPECTED", "The server failed to answer; see its log");
  };
}

/**
 * The validation hook of every route: a request that does not fit its schema becomes an
 * InvalidInputError naming the first offending field (as the engine's own `parseInput` does, an
 * unknown field first), prefixed by where it was (a path parameter, the query, the body).
 */
export function validationHook(
  result: { success: true } | { success: false; error: z.ZodError; target: string },
): void {
  if (result.success) return;
  const issues = inputIssues(result.error);
  const first = issues[0]!;
  const where = result.target === "json" ? "body" : result.target;
  throw new InvalidInputError(`Invalid ${where}: ${describeIssue(first)}`, {
    field: first.field || where,
    in: where,
    issues: issues.map(({ field, message }) => ({ field, message })),
  });
}
