/**
 * `--standing` on the lab's paper reproductions: standing instructions are memlane's own, none of
 * the papers has them, and they cost a model call per session; so these evaluations run without
 * them unless the flag asks for them.
 */
import type { Command } from "commander";

/** Adds `--standing` to a paper-protocol evaluation. */
export function standingOption(cmd: Command): Command {
  return cmd.option(
    "--standing",
    "keep standing instructions in every strategy (off: the paper's protocol has none)",
  );
}
