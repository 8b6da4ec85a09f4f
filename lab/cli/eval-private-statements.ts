/** `eval private-statements [file]`: the offline private-statement detector, by part, style and kind. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { GlobalOptions } from "../../src/cli/options.js";
import { print, printJson } from "../../src/cli/output.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { readLocomo } from "../../src/engine/formats/locomo.js";
import {
  evaluateStatements,
  flagRate,
  loadStatements,
  type Part,
  privacyMarkdown,
} from "../eval/private-statements/evaluate.js";

const STATEMENTS = new URL("../data/privacy/statements.jsonl", import.meta.url).pathname;

/** LoCoMo's dev conversations, where the shared data sits (MEMLANE_SHARED_DATA, or ../shared/data). */
function locomoDev(): string | undefined {
  const root = process.env.MEMLANE_SHARED_DATA ?? new URL("../../../shared/data", import.meta.url).pathname;
  const file = join(root, "locomo-dev", "locomo-dev.json");
  return existsSync(file) ? file : undefined;
}

/** Adds `private-statements [file]` to the `eval` command. */
export function registerEvalPrivateStatements(evalCmd: Command): void {
  evalCmd
    .command("private-statements [file]")
    .description(
      "the offline private-statement detector on statements a second hand wrote (default lab/data/privacy/statements.jsonl): precision and recall of `private` by part (tune: even FNV-1a of the id; test: odd), style and kind, requests found and taken out; and how often it flags LoCoMo dev turns, with its speed",
    )
    .option("--part <part>", "tune, test or all", "test")
    .option(
      "--locomo <file>",
      "LoCoMo conversations whose turns measure the flag rate (default: the shared locomo-dev)",
    )
    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { part: string; locomo?: string }>();
      if (!["tune", "test", "all"].includes(opts.part))
        throw new InvalidInputError(`--part takes tune, test or all, not "${opts.part}"`, { field: "part" });
      const report = evaluateStatements(loadStatements(file ?? STATEMENTS), opts.part as Part | "all");
      const locomo = opts.locomo ?? locomoDev();
      const turns = locomo
        ? readLocomo(JSON.parse(readFileSync(locomo, "utf8"))).flatMap((s) =>
            s.transcript.sessions.flatMap((x) => x.turns.map((t) => t.text)),
          )
        : [];
      const flags = turns.length ? flagRate(turns) : undefined;
      if (opts.json) return printJson({ ...report, errors: undefined, locomo: flags });
      print(privacyMarkdown([report]));
      if (flags)
        print(
          `LoCoMo turns (${locomo}): ${flags.flagged} of ${flags.turns} flagged private (${((100 * flags.flagged) / flags.turns).toFixed(1)} %), ${flags.microsPerTurn.toFixed(1)} µs a turn. Some flagged turns, to judge by eye:\n${flags.examples.map((e) => `- ${e.slice(0, 160)}`).join("\n")}`,
        );
      else print("LoCoMo turns: none found (set --locomo or MEMLANE_SHARED_DATA) for the flag rate.");
    });
}
