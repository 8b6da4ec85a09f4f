/** `memlane eval currency <dir>`: is memory kept current without losing the past? (the currency set) */
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { createStrategy, strategyNames } from "../../src/strategies/registry.js";
import { loadCurrencySet } from "../eval/currency/dataset.js";
import { evaluateCurrency } from "../eval/currency/evaluate.js";
import { currencyMarkdown } from "../eval/currency/markdown.js";

/**
 * Strategies compared by default: every built-in one except `history`, whose recall ignores the
 * question (it hands over the latest turns for a reply's prompt), so top 3 would only measure
 * what was said last.
 */
export function defaultCurrencyStrategies(): string[] {
  return strategyNames().filter((s) => s !== "history");
}

/** Adds `currency <dir>` to the `eval` command. */
export function registerEvalCurrency(evalCmd: Command): void {
  evalCmd
    .command("currency <dir>")
    .description(
      "per strategy (none = raw turns): share of questions about current, stable and past facts whose top 3 hold the answer, and how often an outdated statement ranks first; tune/test halves",
    )
    .option("--strategies <list>", "strategies to compare (default: every built-in but history)")
    .action(async (dir: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions & { strategies?: string }>();
      const strategies = (opts.strategies ?? defaultCurrencyStrategies().join(","))
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (strategies.length === 0) throw new InvalidInputError("--strategies names no strategy");
      for (const name of strategies) createStrategy(name);
      const set = await loadCurrencySet(dir);
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      note(
        `currency: ${set.conversations.length} conversations, ${set.questions.length} questions, ${strategies.join(", ")} (offline cognition, ${embedder.name})`,
      );
      const bar = progress("currency");
      try {
        const report = await evaluateCurrency(
          set,
          strategies,
          { embedder, cognition: () => new OfflineCognition(embedder) },
          (p) => bar.update(p.done, p.total, p.label),
        );
        if (opts.json) return printJson(report);
        print(currencyMarkdown(report));
      } finally {
        bar.stop();
        await embedder.close?.();
      }
    });
}
