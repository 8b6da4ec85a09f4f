/**
 * `memlane eval mtbench-plus [file]`: MT-Bench+ played turn by turn for each strategy; retrieval
 * accuracy of the final question per type (no model needed), the paper's judge with a chat model,
 * calls and tokens per turn; `--tune` chooses memochat's offline knobs on the tuning half first.
 */
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { readJson } from "../../src/cli/read-text.js";
import { LlmCognition } from "../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveChat, resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { memochatStrategy } from "../../src/strategies/memochat/memochat.js";
import { createStrategy } from "../../src/strategies/registry.js";
import type { Strategy } from "../../src/strategies/strategy.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { MTBENCH_TYPES, type MtbenchConversation, readMtbench } from "../eval/mtbench-plus/dataset.js";
import { evaluateMtbench } from "../eval/mtbench-plus/evaluate.js";
import { mtbenchChart, mtbenchMarkdown, tuneMarkdown } from "../eval/mtbench-plus/report.js";
import { tuneMemochat } from "../eval/mtbench-plus/tune.js";
import { requireSharedData } from "../shared-data.js";
import { type JudgeFlags, judgeFrom, judgeOptions, refuseSameJudge } from "./judge-model.js";
import { standingOption } from "./standing-flag.js";

interface Options extends GlobalOptions, JudgeFlags {
  strategies: string;
  split: string;
  engine: string;
  tune?: boolean;
  chart: string;
  limit?: string;
  standing?: boolean;
}

/** Adds `mtbench-plus [file]` to the `eval` command. */
export function registerEvalMtbenchPlus(evalCmd: Command): void {
  judgeOptions(
    standingOption(evalCmd.command("mtbench-plus [file]")),
    "rates the final replies (with --engine llm and no judge, nothing is rated)",
  )
    .description(
      "MT-Bench+: play each conversation (the strategy writes every agent turn, within the paper's 2,048-token dialogue window), close it, then ask the final long-range question in a new session and score it: turns and memo entries recalled per type (offline), the paper's 1-100 judge (with a judge model), calls and tokens per turn",
    )
    .option("--strategies <list>", "strategies to compare", "memochat,carecall,theanine,creem")
    .option("--split <split>", "which conversations to play: test | tune | all (27 / 27 / 54)", "all")
    .option(
      "--engine <engine>",
      "offline | llm (the chat model plays every agent turn; the judge is --judge-url/--judge-model, never this model) | scripted (the LLM engine on memlane/testing's scripted model: counts calls and tokens, says nothing of quality)",
      "offline",
    )
    .option(
      "--tune",
      "first choose memochat's offline cut, threshold and gate on the tuning half, then play --split with them",
    )
    .option("--chart <file>", "where to write the SVG chart of the test half", "memlane-mtbench-plus.svg")
    .option("--limit <n>", "play only the first n conversations of the split (a quick look)")

    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<Options>();
      if (!["test", "tune", "all"].includes(opts.split))
        throw new InvalidInputError(`--split must be test, tune or all, not "${opts.split}"`);
      if (!["offline", "llm", "scripted"].includes(opts.engine))
        throw new InvalidInputError(`--engine must be offline, llm or scripted, not "${opts.engine}"`);
      // The knobs --tune chooses are the offline engine's; a model would be paid to tune nothing.
      if (opts.tune && opts.engine !== "offline")
        throw new InvalidInputError(
          `--tune chooses the offline engine's knobs: use it with --engine offline`,
          {
            field: "tune",
          },
        );
      const names = opts.strategies
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (names.length === 0) throw new InvalidInputError("--strategies names no strategy");
      for (const n of names) createStrategy(n);
      // The options are checked first: a wrong one is said even where the data is not at hand.
      const path = file ?? requireSharedData("mtbenchplus/mtbenchplus.json", "the MT-Bench+ file");
      const raw = await readJson(path);
      const all = readMtbench(raw, path);
      let played: MtbenchConversation[] =
        opts.split === "all" ? all : all.filter((c) => c.split === opts.split);
      if (opts.limit !== undefined) {
        const n = Number(opts.limit);
        if (!Number.isInteger(n) || n < 1)
          throw new InvalidInputError(`--limit must be a positive whole number, not "${opts.limit}"`);
        played = played.slice(0, n);
      }
      const config = configFrom(opts);
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
      const chat = opts.engine === "llm" ? resolveChat(config.chat) : null;
      if (opts.engine === "llm" && !chat)
        throw new InvalidInputError(
          "--engine llm needs a chat model: set --chat-url and --chat-model, or --gguf",
        );
      const scripted = opts.engine === "scripted" ? scriptedLlm() : null;
      const cognition = () =>
        chat
          ? new LlmCognition(chat, { retries: config.retries })
          : scripted
            ? new LlmCognition(scripted)
            : new OfflineCognition(embedder);
      refuseSameJudge(opts, config.chat);
      const judge = judgeFrom(opts, scripted ? () => "A scripted judgement. [[50]]" : undefined);
      if (opts.engine !== "offline" && !judge)
        note("no judge model (--judge-url and --judge-model): replies are played, not rated");
      const ports = { embedder, cognition, judge, standing: opts.standing ?? false };
      try {
        let memochat: Strategy = memochatStrategy();
        let tuned = null;
        if (opts.tune) {
          const tuneHalf = all.filter((c) => c.split === "tune");
          note(`tuning memochat on ${tuneHalf.length} conversations (${embedder.name})…`);
          const bar = progress("tune");
          try {
            tuned = await tuneMemochat(tuneHalf, ports, undefined, (p) =>
              bar.update(p.done, p.total, p.label),
            );
          } finally {
            bar.stop();
          }
          memochat = memochatStrategy({
            cut: tuned.best.cut,
            chooser: { threshold: tuned.best.threshold, gate: tuned.best.gate },
          });
          if (!opts.json) print(`${tuneMarkdown(tuned)}\n`);
        }
        const strategies = names.map((n) => (n === "memochat" ? memochat : createStrategy(n)));
        note(
          `mtbench-plus: ${played.length} conversations (${opts.split}: ${MTBENCH_TYPES.map((t) => `${played.filter((c) => c.type === t).length} ${t}`).join(", ")}), ${names.join(", ")}, ${opts.engine} engine, ${embedder.name}`,
        );
        const bar = progress("mtbench-plus");
        let report: Awaited<ReturnType<typeof evaluateMtbench>>;
        try {
          report = await evaluateMtbench(played, strategies, ports, (p) =>
            bar.update(p.done, p.total, p.label),
          );
        } finally {
          bar.stop();
        }
        if (played.some((c) => c.split === "test")) await writeFile(opts.chart, mtbenchChart(report));
        if (opts.json) return printJson({ tuned, ...report, chart: opts.chart });
        print(mtbenchMarkdown(report));
        print(`\nchart: ${opts.chart} · ${(report.elapsedMs / 1000).toFixed(1)} s`);
      } finally {
        await embedder.close?.();
      }
    });
}
