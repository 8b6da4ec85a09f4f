/** `memlane eval rules <dir>`: does memory keep the obvious promises? (the memory-rules set) */
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { createStrategy } from "../../src/strategies/registry.js";
import { loadRuleCases, type RuleSplit } from "../eval/rules/dataset.js";
import { evaluateRules } from "../eval/rules/evaluate.js";
import { rulesMarkdown } from "../eval/rules/markdown.js";

/** Adds `rules <dir>` to the `eval` command. */
export function registerEvalRules(evalCmd: Command): void {
  evalCmd
    .command("rules <dir>")
    .description(
      "per strategy: cases kept of a fact said twice (one memory), an addition (both kept), a change (old retired, new kept), a stop (habit retired, stop kept) and clean statements; tune/test halves, by style",
    )
    .option("--strategies <list>", "strategies to compare", "carecall,creem")
    .option("--part <split>", "only the tune or the test half")
    .option("--only <ids>", "only these case ids (comma-separated)")
    .option("--failures", "list every case that failed, with the memories it left")
    .action(async (dir: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { strategies: string; part?: string; only?: string; failures?: boolean }
      >();
      const strategies = opts.strategies
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (strategies.length === 0) throw new InvalidInputError("--strategies names no strategy");
      for (const name of strategies) createStrategy(name);
      if (opts.part !== undefined && opts.part !== "tune" && opts.part !== "test")
        throw new InvalidInputError(`--part must be tune or test, not "${opts.part}"`, { field: "part" });
      const only = opts.only ? new Set(opts.only.split(",").map((s) => s.trim())) : null;
      const cases = (await loadRuleCases(dir)).filter(
        (c) => (!opts.part || c.split === (opts.part as RuleSplit)) && (!only || only.has(c.id)),
      );
      if (cases.length === 0) throw new InvalidInputError("no case is left after --part and --only");
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      note(`rules: ${cases.length} cases, ${strategies.join(", ")} (offline cognition, ${embedder.name})`);
      const bar = progress("rules");
      try {
        const report = await evaluateRules(
          cases,
          strategies,
          { embedder, cognition: () => new OfflineCognition(embedder) },
          (p) => bar.update(p.done, p.total, p.label),
        );
        bar.stop();
        if (opts.json) return printJson(report);
        print(rulesMarkdown(report, { failures: opts.failures }));
      } finally {
        bar.stop();
        await embedder.close?.();
      }
    });
}
