/**
 * The lab's command: `npm run lab -- eval <lab> …` from a clone. The evaluations that measure
 * memlane's strategies against the papers' and our labelled data live here, beside the product
 * and outside the published package; they take the same global options as `memlane` (store,
 * strategy, embedder, chat model) and use the product through its own modules.
 * `npm run bench <name>` (lab/bench/) and `npm run train` (lab/train/) are the lab's other doors.
 * Like memlane's `main`, the lab's takes the streams to use (tests run it in their own process)
 * and resolves to the exit code without exiting.
 */
import { Command, CommanderError } from "commander";
import { exitAfterFlush, isEntryPoint } from "../src/cli/entry.js";
import { type CliIo, withIo } from "../src/cli/io.js";
import { addGlobalOptions } from "../src/cli/options.js";
import { EXIT_CODES, reportError } from "../src/cli/output.js";
import { registerEval } from "./cli/eval.js";

export function buildLabProgram(): Command {
  const program = addGlobalOptions(
    new Command("lab").description(
      "memlane's lab: evaluations of the strategies on labelled and public data",
    ),
  );
  registerEval(program);
  return program;
}

/**
 * Runs the lab's command line `argv` (node's shape) and resolves to the exit code; what `io`
 * leaves out is the process's own.
 */
export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  return withIo(io, async () => {
    try {
      await buildLabProgram().parseAsync(argv);
      return 0;
    } catch (error) {
      if (error instanceof CommanderError)
        return error.exitCode === 0 || error.code === "commander.helpDisplayed" ? 0 : EXIT_CODES.USAGE;
      return reportError(error, argv.includes("--json"));
    }
  });
}

if (isEntryPoint(import.meta.url)) main(process.argv).then(exitAfterFlush);
