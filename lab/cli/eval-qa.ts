/**
 * `memlane eval qa FILE`: answer accuracy on LoCoMo, LongMemEval or BEAM with your own answer
 * model and a separate judge, per strategy and beside the full-context and no-memory baselines,
 * with bootstrap intervals, evidence recall@k, tokens, latency and cost. Answers and grades are
 * cached in a file, so a run that stops resumes without paying twice. See docs/qa-lab.md.
 */
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { z } from "zod";
import { configFrom, type GlobalOptions, wholeNumber } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { readText } from "../../src/cli/read-text.js";
import { LlmCognition } from "../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError, ModelUnavailableError } from "../../src/core/errors.js";
import { resolveChat, resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import type { ChatModel } from "../../src/models/chat-model.js";
import { createStrategy } from "../../src/strategies/registry.js";
import { emmaScriptedSteps } from "../../src/testing/emma-scripted.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { QaCache } from "../eval/qa/cache.js";
import { loadQaSet, QA_FORMATS, type QaFormat } from "../eval/qa/load.js";
import { MeteredChatModel } from "../eval/qa/metered-model.js";
import { type Prices, qaChart, qaMarkdown, qaReport } from "../eval/qa/report.js";
import { BASELINES, type Baseline, runQa, THEANINE_TIMELINES } from "../eval/qa/run.js";
import { scriptedAnswerModel, scriptedJudgeModel } from "../eval/qa/scripted.js";
import { applyErrata, limitQuestions, parseErrata, sampleQuestions } from "../eval/qa/select.js";
import { type JudgeFlags, judgeFrom, judgeOptions, refuseSameJudge } from "./judge-model.js";

interface Options extends GlobalOptions, JudgeFlags {
  format: QaFormat;
  agent?: string;
  strategies: string;
  baselines: string;
  k: string;
  theanineK: string;
  engine: string;
  cache: string | false;
  limit?: string;
  sample?: string;
  seed: string;
  concurrency: string;
  retries: string;
  contextWindow: string;
  prices?: string;
  errata?: string;
  chart?: string;
}

const pricesSchema = z.record(
  z.string(),
  z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }),
);

/** Adds `qa <file>` to the `eval` command. */
export function registerEvalQa(evalCmd: Command): void {
  judgeOptions(evalCmd.command("qa <file>"), "grades the answers")
    .description(
      "answer accuracy on a LoCoMo or LongMemEval file or a BEAM folder: each strategy's recall given to your answer model (--chat-url, --chat-model), graded by a separate judge; baselines, 95 % intervals, evidence recall@k, tokens, latency, cost; cached and resumable",
    )
    .option("--format <format>", `${QA_FORMATS.join(" | ")}`, "auto")
    .option("--agent <name>", "LoCoMo: which speaker is the agent (default speaker_a)")
    .option("--strategies <list>", "strategies to compare (comma-separated)", "none,carecall,creem")
    .option(
      "--baselines <list>",
      `baselines run beside them: ${BASELINES.join(", ")} (comma-separated), or "off"`,
      BASELINES.join(","),
    )
    .option("-k, --k <n>", "hits each strategy recalls per question (theanine: see --theanine-k)", "10")
    .option(
      "--theanine-k <n>",
      "theanine's timelines per question, one per retrieved memory (the paper's 3)",
      String(THEANINE_TIMELINES),
    )
    .option(
      "--engine <engine>",
      "who writes the memories: offline (default) | llm (the chat model) | scripted (scripted answer model, judge and writer: counts calls and tokens, says nothing of quality)",
      "offline",
    )
    .option(
      "--cache <file>",
      "answers and grades kept here; a rerun resumes from it",
      "memlane-qa-cache.jsonl",
    )
    .option("--no-cache", "keep nothing (every call is paid again next time)")
    .option("--limit <n>", "only the first n questions of the file")
    .option("--sample <n>", "n questions drawn across categories in proportion (seeded by --seed)")
    .option("--seed <n>", "seed of --sample and of the bootstrap", "1")
    .option("--concurrency <n>", "model calls in flight at once", "4")
    .option("--retries <n>", "retries of a failed call (429 and 5xx back off, honouring Retry-After)", "6")
    .option(
      "--context-window <tokens>",
      "the answer model's window; the full-context baseline keeps the newest turns that fit",
      "128000",
    )
    .option(
      "--prices <file-or-json>",
      'dollars per million tokens by model: {"gpt-4o-mini": {"input": 0.15, "output": 0.6}}',
    )
    .option("--errata <file>", "corrected gold answers: JSON {question id: answer} or JSON lines")
    .option("--chart <file>", "also write an SVG chart of accuracy per category")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<Options>();
      const k = wholeNumber(opts.k, "k", 1);
      const theanineK = wholeNumber(opts.theanineK, "theanine-k", 1);
      const concurrency = wholeNumber(opts.concurrency, "concurrency", 1);
      const retries = wholeNumber(opts.retries, "retries", 0);
      const contextWindow = wholeNumber(opts.contextWindow, "context-window", 2048);
      const seed = wholeNumber(opts.seed, "seed", 0);
      if (!["offline", "llm", "scripted"].includes(opts.engine))
        throw new InvalidInputError(`--engine must be offline, llm or scripted, not "${opts.engine}"`);
      const strategies = list(opts.strategies);
      for (const name of strategies) createStrategy(name);
      const baselines = opts.baselines === "off" ? [] : list(opts.baselines);
      const unknown = baselines.filter((b) => !BASELINES.includes(b as Baseline));
      if (unknown.length)
        throw new InvalidInputError(
          `Unknown baseline ${unknown.join(", ")}; use ${BASELINES.join(", ")} or "off"`,
        );
      if (strategies.length + baselines.length === 0)
        throw new InvalidInputError("Nothing to run: name a strategy or a baseline");
      const prices = opts.prices ? await readPrices(opts.prices) : undefined;

      // The models: the answer model under test, a separate judge, and the memory writer.
      const config = configFrom(opts);
      const scripted = opts.engine === "scripted";
      const client = { maxRetries: retries };
      const chat = scripted
        ? null
        : resolveChat(
            config.chat && !("generate" in config.chat) && !("gguf" in config.chat)
              ? { ...config.chat, ...client }
              : config.chat,
          );
      if (!scripted && !chat)
        throw new InvalidInputError(
          "eval qa needs an answer model: set --chat-url and --chat-model (or --gguf), or run --engine scripted",
          { field: "chat" },
        );
      const answer: ChatModel = chat ?? scriptedAnswerModel();
      const endpoint = config.chat && "baseURL" in config.chat ? config.chat : undefined;
      refuseSameJudge(opts, config.chat, "the answer model");
      const judge = judgeFrom(opts, scripted ? scriptedJudgeModel() : undefined, client);
      if (!judge)
        throw new InvalidInputError(
          "eval qa grades with a separate judge: set --judge-url and --judge-model (the answer model never grades itself)",
          { field: "judge" },
        );
      const writerModel =
        opts.engine === "llm"
          ? new MeteredChatModel(answer)
          : scripted
            ? new MeteredChatModel(scriptedLlm({ byName: emmaScriptedSteps() }))
            : null;
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));

      // The questions.
      let set = await loadQaSet(file, { format: opts.format, ...(opts.agent ? { agent: opts.agent } : {}) });
      const notes = [...set.notes];
      if (opts.errata) {
        const fixed = applyErrata(set, parseErrata(await readText(opts.errata), opts.errata));
        set = fixed.set;
        notes.push(
          `errata (${opts.errata}): ${fixed.changed} gold answers changed${fixed.unknown.length ? `; ${fixed.unknown.length} ids not in the file (${fixed.unknown.slice(0, 5).join(", ")}${fixed.unknown.length > 5 ? ", …" : ""})` : ""}`,
        );
      }
      if (opts.sample !== undefined) set = sampleQuestions(set, wholeNumber(opts.sample, "sample", 1), seed);
      if (opts.limit !== undefined) set = limitQuestions(set, wholeNumber(opts.limit, "limit", 1));
      const questions = set.conversations.reduce((n, c) => n + c.questions.length, 0);

      const cache = await QaCache.open(opts.cache === false ? null : opts.cache);
      note(
        `eval qa: ${set.format}, ${set.conversations.length} conversations, ${questions} questions × ${strategies.length + baselines.length} conditions (${[...strategies, ...baselines].join(", ")}); answers ${answer.name}, judge ${judge.name}, memory ${writerModel?.name ?? "offline"}${cache.path ? `; cache ${cache.path} (${cache.loaded} entries${cache.skipped ? `, ${cache.skipped} unreadable lines skipped` : ""})` : "; no cache"}`,
      );
      const bar = progress("qa", !opts.json);
      let run: Awaited<ReturnType<typeof runQa>>;
      try {
        run = await runQa(
          set,
          {
            answer,
            judge,
            // The cache tells endpoints apart: one model name may be served in two places.
            ...(endpoint ? { answerId: `${answer.name}@${endpoint.baseURL}` } : {}),
            ...(opts.judgeUrl ? { judgeId: `${judge.name}@${opts.judgeUrl}` } : {}),
            embedder,
            cognition: () =>
              writerModel
                ? new LlmCognition(writerModel, { retries: config.retries })
                : new OfflineCognition(embedder),
            writer: writerModel?.name ?? "offline",
            ...(writerModel ? { writerUsage: () => writerModel.spent } : {}),
            strategy: createStrategy,
          },
          {
            strategies,
            baselines: baselines as Baseline[],
            k,
            theanineK,
            contextWindow,
            concurrency,
            cache,
            onProgress: (done, total, label) => bar.update(done, total, label),
          },
        );
      } finally {
        bar.stop();
        await embedder.close?.();
      }
      if (strategies.includes("theanine") && theanineK !== k)
        notes.push(`theanine recalls ${theanineK} timelines per question (--theanine-k), not k ${k}`);
      if (scripted)
        notes.push(
          "--engine scripted: scripted answers, grades and memory writing; these figures count calls and tokens, not quality",
        );
      const report = qaReport(run, { ...(prices ? { prices } : {}), notes, seed });
      if (opts.chart) {
        await writeFile(opts.chart, qaChart(report));
        note(`chart written to ${opts.chart}`);
      }
      if (opts.json) printJson({ report, rows: run.rows });
      else print(qaMarkdown(report));
      const failed = run.rows.filter((r) => r.error);
      if (failed.length && failed.length === run.rows.length)
        throw new ModelUnavailableError(
          `Every question failed (first: ${failed[0]!.error}); nothing was graded. Check the endpoints, then run again: the cache keeps what was paid for`,
          { errors: failed.length },
        );
      if (failed.length)
        note(
          `${failed.length} of ${run.rows.length} rows failed (see the notes under the report); run again to retry them`,
        );
    });
}

function list(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Prices from a JSON string or a file holding one. */
async function readPrices(value: string): Promise<Prices> {
  const text = value.trim().startsWith("{") ? value : await readText(value);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(`--prices is not JSON: ${(error as Error).message}`, { field: "prices" });
  }
  const parsed = pricesSchema.safeParse(raw);
  if (!parsed.success)
    throw new InvalidInputError(
      `--prices must map model names to {"input": dollars, "output": dollars} per million tokens: ${z.prettifyError(parsed.error)}`,
      { field: "prices" },
    );
  return parsed.data;
}
