#!/usr/bin/env node
/**
 * The published `memlane` binary. `memlane --version` is answered before anything else is loaded,
 * so it returns at once; every other command line goes to main.ts, whose commands load the engine,
 * the server or the Postgres driver only when they run. Exits with the run's code once stdout and
 * stderr have flushed.
 */
import { exitAfterFlush, isEntryPoint } from "./entry.js";
import { VERSION } from "./version.js";

if (isEntryPoint(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    process.stdout.write(`${VERSION}\n`);
    exitAfterFlush(0);
  } else
    import("./main.js")
      .then(({ main }) => main(process.argv))
      .then(exitAfterFlush, (error: unknown) => {
        // Only a failure to load the command line itself lands here; main reports its own errors.
        process.stderr.write(`memlane: ${(error as Error)?.stack ?? String(error)}\n`);
        exitAfterFlush(1);
      });
}
