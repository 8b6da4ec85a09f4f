/** `eval privacy-leaks [file]`: does one partner's secret reach another, per strategy? */
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveEmbedder } from "../../src/engine/config.js";
import { openMemlane } from "../../src/engine/open-memlane.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { createStrategy, strategyNames } from "../../src/strategies/registry.js";
import { type LeakOutcome, leaksMarkdown, loadLeaks, playLeak } from "../eval/privacy-leaks/evaluate.js";

const LEAKS = new URL("../data/privacy/leaks.jsonl", import.meta.url).pathname;

/** Adds `privacy-leaks [file]` to the `eval` command. */
export function registerEvalPrivacyLeaks(evalCmd: Command): void {
  evalCmd
    .command("privacy-leaks [file]")
    .description(
      "per strategy: is an owner's secret kept from another partner who asks for it (the reply and its recall), does the owner still hear it, and under agent scope is the secret kept and the ordinary fact found (default lab/data/privacy/leaks.jsonl)",
    )
    .option("--strategies <list>", "strategies to compare (default: every built-in one that keeps memory)")
    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { strategies?: string }>();
      const strategies = (
        opts.strategies ??
        strategyNames()
          .filter((s) => s !== "none")
          .join(",")
      )
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (strategies.length === 0) throw new InvalidInputError("--strategies names no strategy");
      for (const name of strategies) createStrategy(name);
      const scenarios = loadLeaks(file ?? LEAKS);
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      note(
        `privacy-leaks: ${scenarios.length} scenarios × ${strategies.join(", ")} (offline cognition, ${embedder.name})`,
      );
      const bar = progress("privacy-leaks");
      const outcomes: LeakOutcome[] = [];
      try {
        const total = scenarios.length * strategies.length;
        for (const strategy of strategies)
          for (const c of scenarios) {
            const open = () => openMemlane({ store: ":memory:", strategy, embedder, tenant: "lab" });
            outcomes.push(await playLeak(open, strategy, c));
            bar.update(outcomes.length, total, `${strategy} ${c.id}`);
          }
        if (opts.json) return printJson(outcomes);
        print(leaksMarkdown(outcomes));
      } finally {
        bar.stop();
        await embedder.close?.();
      }
    });
}
