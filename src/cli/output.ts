/**
 * Printing for the CLI: JSON when asked, plain text otherwise, and errors as exit codes. Every
 * line goes to the run's io (io.ts): the process's streams, or the ones `main(argv, io)` was given.
 */
import pc from "picocolors";
import { type ErrorCode, isMemlaneError } from "../core/errors.js";
import { type CliIo, io, processIo } from "./io.js";

/** Exit codes by error code; documented in docs/errors.md. */
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
  BUSY: 10,
};

export function printJson(value: unknown): void {
  io().stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function print(line = ""): void {
  io().stdout.write(`${line}\n`);
}

export function note(line: string): void {
  io().stderr.write(`${color.dim(line)}\n`);
}

/** Reports an error on stderr (as JSON with --json) and returns the exit code. */
export function reportError(error: unknown, json: boolean): number {
  const { stderr } = io();
  if (isMemlaneError(error)) {
    if (json)
      stderr.write(
        `${JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } })}\n`,
      );
    else stderr.write(`${color.red(`error [${error.code}]`)} ${shown(error.message)}\n`);
    return EXIT_CODES[error.code];
  }
  const message = (error as Error)?.stack ?? String(error);
  if (json)
    stderr.write(
      `${JSON.stringify({ error: { code: "UNEXPECTED", message: String((error as Error)?.message ?? error) } })}\n`,
    );
  else stderr.write(`${color.red("unexpected error")} ${message}\n`);
  return EXIT_CODES.UNEXPECTED;
}

type Colors = ReturnType<typeof pc.createColors>;

/**
 * Whether a run's output is coloured, by picocolors' own rule read from the run's environment
 * and stdout: NO_COLOR says no; FORCE_COLOR, CI or a terminal (not TERM=dumb) say yes.
 */
export function colorsOn(run: CliIo): boolean {
  const { env } = run;
  if (env.NO_COLOR) return false;
  return Boolean(
    env.FORCE_COLOR || process.platform === "win32" || (run.stdout.isTTY && env.TERM !== "dumb") || env.CI,
  );
}

const palettes = new WeakMap<CliIo, Colors>();

/** The run's palette: picocolors as it decided for the process, or one made for the given io. */
function palette(): Colors {
  const run = io();
  if (run === processIo) return pc;
  let colors = palettes.get(run);
  if (!colors) {
    colors = pc.createColors(colorsOn(run));
    palettes.set(run, colors);
  }
  return colors;
}

/** picocolors' functions (`color.bold(…)`), coloured or plain as the run in progress is. */
export const color = {} as Colors;
for (const name of Object.keys(pc.createColors(false)) as (keyof Colors)[])
  Object.defineProperty(color, name, { enumerable: true, get: () => palette()[name] });

/**
 * Text as it may be shown on a terminal: control characters (escape sequences that move the
 * cursor, set the title or write the clipboard) and bidirectional overrides are printed as
 * visible codes, never sent raw. Tabs and line breaks stay.
 */
export function shown(text: string): string {
  return text
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`)
    .replace(BIDI, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Invisible characters (direction marks, zero-width spaces and joiners, BOM) and line separators. */
const BIDI = /[\p{Cf}\u2028\u2029]/gu;
