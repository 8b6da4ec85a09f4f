#!/usr/bin/env node
/** The `memlane` command. Every subcommand has --help; read commands take --json. */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Command, CommanderError } from "commander";
import { UnsupportedError } from "../core/errors.js";
import { strategyNames } from "../strategies/registry.js";
import { registerChat } from "./commands/chat.js";
import { registerDemo } from "./commands/demo.js";
import { registerForget } from "./commands/forget.js";
import { registerHistory } from "./commands/history.js";
import { registerIngest } from "./commands/ingest.js";
import { registerInspect } from "./commands/inspect.js";
import { registerKeys } from "./commands/keys.js";
import { registerMcp } from "./commands/mcp.js";
import { registerRecall } from "./commands/recall.js";
import { registerReindex } from "./commands/reindex.js";
import { registerServe } from "./commands/serve.js";
import { registerSimulate } from "./commands/simulate.js";
import { registerWorker } from "./commands/worker.js";
import { addGlobalOptions } from "./options.js";
import { EXIT_CODES, reportError } from "./output.js";

export function buildProgram(): Command {
  const program = addGlobalOptions(
    new Command("memlane").description(
      "long-term memory for conversational agents: remembers, keeps current, loses nothing, runs offline",
    ),
  );
  registerDemo(program);
  registerIngest(program);
  registerRecall(program);
  registerReindex(program);
  registerHistory(program);
  registerInspect(program);
  registerForget(program);
  registerChat(program);
  // The lab (evaluations, benchmarks, training) is its own wing, in the repository only.
  program
    .command("eval", { hidden: true })
    .allowUnknownOption()
    .argument("[args...]")
    .action(() => {
      throw new UnsupportedError(
        "the lab is not part of the memlane command: from a clone of the repository, run `npm run lab -- eval …` (lab/README.md)",
      );
    });
  registerSimulate(program);
  registerServe(program);
  registerWorker(program);
  registerKeys(program);
  registerMcp(program);
  program
    .command("strategies")
    .description("list the memory strategies")
    .action(() => {
      for (const name of strategyNames()) process.stdout.write(`${name}\n`);
    });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.exitCode === 0
      )
        return 0;
      return EXIT_CODES.USAGE;
    }
    return reportError(error, argv.includes("--json"));
  }
}

/** True when this file is the program being run, also through a symlink (npx, npm bin links). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
const invoked = isEntryPoint();
/** Exits once stdout and stderr have flushed: exiting at once cuts output piped to another program. */
function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

if (invoked) main(process.argv).then(exitAfterFlush);
