/**
 * Typed errors. Every error memlane throws on purpose is a MemlaneError with a stable `code`,
 * so callers (and the CLI's exit codes) can branch on what went wrong without parsing text.
 */
export type ErrorCode =
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "STORE_UNAVAILABLE"
  | "MODEL_UNAVAILABLE"
  | "MODEL_TIMEOUT"
  | "SCHEMA_MISMATCH"
  | "UNSUPPORTED"
  | "BUSY";

export class MemlaneError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/** The caller handed us something we cannot accept; nothing was changed. */
export class InvalidInputError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("INVALID_INPUT", message, details);
  }
}

export class NotFoundError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("NOT_FOUND", message, details);
  }
}

/** The write would collide with what is stored (a duplicate id, a closed session). */
export class ConflictError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("CONFLICT", message, details, cause);
  }
}

/** The database cannot be opened, is locked, or is not a memlane database. */
export class StoreUnavailableError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("STORE_UNAVAILABLE", message, details, cause);
  }
}

export class ModelUnavailableError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("MODEL_UNAVAILABLE", message, details, cause);
  }
}

export class ModelTimeoutError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("MODEL_TIMEOUT", message, details, cause);
  }
}

/** A model's answer did not fit its schema even after repair and retries. */
export class SchemaMismatchError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("SCHEMA_MISMATCH", message, details);
  }
}

/** What was asked is not supported here: another specification version, a package not installed. */
export class UnsupportedError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super("UNSUPPORTED", message, details, cause);
  }
}

/**
 * A tenant has as much work waiting as it may: nothing was changed; try again after
 * `details.retryAfterSeconds`. Work already accepted is never dropped for it.
 */
export class BusyError extends MemlaneError {
  constructor(message: string, details: Record<string, unknown> & { retryAfterSeconds: number }) {
    super("BUSY", message, details);
  }
}

export function isMemlaneError(error: unknown): error is MemlaneError {
  return error instanceof MemlaneError;
}
