/** `lab eval spelling <dir>`: typed slips read as the words meant (the typed-slips set). */
import type { Command } from "commander";
import type { GlobalOptions } from "../../src/cli/options.js";
import { print, printJson } from "../../src/cli/output.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { evaluateSlips, loadSlipCases, slipsMarkdown } from "../eval/spelling/evaluate.js";

/** Adds `spelling <dir>` to the `eval` command. */
export function registerEvalSpelling(evalCmd: Command): void {
  evalCmd
    .command("spelling <dir>")
    .description(
      "typed slips the offline summarizer reads as the words meant: slips repaired, repaired wrong, and right words harmed, by style; tune/test halves",
    )
    .option("--part <split>", "only the tune or the test half")
    .option("--examples", "list every message not read exactly as meant")
    .action(async (dir: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { part?: string; examples?: boolean }>();
      if (opts.part !== undefined && opts.part !== "tune" && opts.part !== "test")
        throw new InvalidInputError(`--part must be tune or test, not "${opts.part}"`, { field: "part" });
      const cases = (await loadSlipCases(dir)).filter((c) => !opts.part || c.split === opts.part);
      const report = evaluateSlips(cases);
      if (opts.json) return printJson(report);
      print(slipsMarkdown(report, { examples: opts.examples }));
    });
}
