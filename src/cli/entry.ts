/**
 * Starting a command line as a program: whether a module is the script node was given (also
 * through a symlink, as npx and npm's bin links start it), and exiting with a run's code only once
 * stdout and stderr have flushed. Shared by bin.ts, main.ts and the lab's main.ts.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** True when the module at `moduleUrl` is the program being run, also through a symlink. */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** Exits once stdout and stderr have flushed: exiting at once cuts output piped to another program. */
export function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
