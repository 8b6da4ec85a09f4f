#!/usr/bin/env node
/**
 * The `memlane` command line. Every subcommand has --help; read commands take --json.
 * `main(argv, io)` runs one command and resolves to its exit code, never exiting the process:
 * the published binary (bin.ts) exits with it, tests call it in their own process with their own
 * streams. Building the program loads no engine: each command loads what it needs when it runs.
 */
import { Command, CommanderError } from "commander";
import { UnsupportedError } from "../core/errors.js";
import { registerChat } from "./commands/chat.js";
import { registerDemo } from "./commands/demo.js";
import { registerExport } from "./commands/export.js";
import { registerForget } from "./commands/forget.js";
import { registerHistory } from "./commands/history.js";
import { registerIngest } from "./commands/ingest.js";
import { registerInspect } from "./commands/inspect.js";
import { registerKeys } from "./commands/keys.js";
import { registerMcp } from "./commands/mcp.js";
import { registerMemories } from "./commands/memories.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerRecall } from "./commands/recall.js";
import { registerReindex } from "./commands/reindex.js";
import { registerServe } from "./commands/serve.js";
import { registerSessions } from "./commands/sessions.js";
import { registerSimulate } from "./commands/simulate.js";
import { registerWorker } from "./commands/worker.js";
import { exitAfterFlush, isEntryPoint } from "./entry.js";
import { type CliIo, withIo } from "./io.js";
import { addGlobalOptions } from "./options.js";
import { EXIT_CODES, print, reportError } from "./output.js";

/** The `memlane` program with all its commands, none of them loaded beyond its options. */
export function buildProgram(): Command {
  const program = addGlobalOptions(
    new Command("memlane").description(
      "long-term memory for conversational agents: remembers, keeps current, loses nothing, runs offline",
    ),
  );
  registerDemo(program);
  registerIngest(program);
  registerRecall(program);
  registerMigrate(program);
  registerReindex(program);
  registerHistory(program);
  registerInspect(program);
  registerForget(program);
  registerMemories(program);
  registerSessions(program);
  registerExport(program);
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
    .action(async () => {
      const { strategyNames } = await import("../strategies/registry.js");
      for (const name of strategyNames()) print(name);
    });
  return program;
}

/**
 * Runs the command line `argv` (node's shape: the first two entries are skipped) and resolves to
 * the exit code. What `io` leaves out is the process's own: stdout, stderr, stdin, environment.
 */
export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  return withIo(io, async () => {
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
  });
}

// Run directly (`node dist/cli/main.js`, tests that start it as a process); bin.ts is the binary.
if (isEntryPoint(import.meta.url)) main(process.argv).then(exitAfterFlush);
