/**
 * The lab's command: `npm run lab -- eval <lab> …` from a clone. The evaluations that measure
 * memlane's strategies against the papers' and our labelled data live here, beside the product
 * and outside the published package; they take the same global options as `memlane` (store,
 * strategy, embedder, chat model) and use the product through its own modules.
 * `npm run bench <name>` (lab/bench/) and `npm run train` (lab/train/) are the lab's other doors.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { addGlobalOptions } from "../src/cli/options.js";
import { EXIT_CODES, reportError } from "../src/cli/output.js";
import { registerEval } from "./cli/eval.js";

export function buildLabProgram(): Command {
  const program = addGlobalOptions(
    new Command("lab").description("memlane's lab: evaluations of the strategies on labelled and public data"),
  );
  registerEval(program);
  return program;
}

/** Runs the lab's command line; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildLabProgram().parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" ? 0 : EXIT_CODES.USAGE;
    return reportError(error, argv.includes("--json"));
  }
}

const script = process.argv[1];
if (script && realpathSync(script) === realpathSync(fileURLToPath(import.meta.url)))
  main(process.argv).then((code) => {
    process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
  });
