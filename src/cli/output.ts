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
    else process.stderr.write(`${pc.red(`error [${error.code}]`)} ${shown(error.message)}\n`);
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

/**
 * Text as it may be shown on a terminal: control characters (escape sequences that move the
 * cursor, set the title or write the clipboard) and bidirectional overrides are printed as
 * visible codes, never sent raw. Tabs and line breaks stay.
 */
export function shown(text: string): string {
  return text
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
