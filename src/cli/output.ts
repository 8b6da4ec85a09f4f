/** Printing for the CLI: JSON when asked, plain text otherwise, and errors as exit codes. */
import pc from "picocolors";
import { type ErrorCode, isMemlaneError } from "../core/errors.js";

/** Exit codes by error code; documented in the README. */
export const EXIT_CODES: Record<ErrorCode | "USAGE" | "UNEXPECTED", number> = {
  UNEXPECTED: 1,
  USAGE: 2,
  INVALID_INPUT: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  STORE_UNAVAILABLE: 6,
  MODEL_UNAVAILABLE: 7,
  MODEL_TIMEOUT: 7,
  SCHEMA_MISMATCH: 8,
  UNSUPPORTED: 9,
};

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

export function note(line: string): void {
  process.stderr.write(`${pc.dim(line)}\n`);
}

/** Reports an error on stderr (as JSON with --json) and returns the exit code. */
export function reportError(error: unknown, json: boolean): number {
  if (isMemlaneError(error)) {
    if (json)
      process.stderr.write(
        `${JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } })}\n`,
      );
    else process.stderr.write(`${pc.red(`error [${error.code}]`)} ${error.message}\n`);
    return EXIT_CODES[error.code];
  }
  const message = (error as Error)?.stack ?? String(error);
  if (json)
    process.stderr.write(
      `${JSON.stringify({ error: { code: "UNEXPECTED", message: String((error as Error)?.message ?? error) } })}\n`,
    );
  else process.stderr.write(`${pc.red("unexpected error")} ${message}\n`);
  return EXIT_CODES.UNEXPECTED;
}

export const color = pc;
