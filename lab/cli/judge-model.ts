/**
 * The model a lab grades or writes exams with: its own endpoint and model (`--judge-url`,
 * `--judge-model`, `--judge-key` or MEMLANE_JUDGE_KEY), never the system under test. The scripted
 * engine gets a scripted judge of its own, so a run shows every judge call going to the judge.
 */
import type { Command } from "commander";
import { io } from "../../src/cli/io.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveChat } from "../../src/engine/config.js";
import type { ChatModel } from "../../src/models/chat-model.js";
import { ScriptedChatModel } from "../../src/models/test-doubles.js";

export interface JudgeFlags {
  judgeUrl?: string;
  judgeModel?: string;
  judgeKey?: string;
  /** Lets the judge be the system's own model (refused otherwise). */
  allowSameJudge?: boolean;
}

/** Adds the judge's flags to a lab command; `role` says what the judge does there. */
export function judgeOptions(cmd: Command, role: string): Command {
  return cmd
    .option(
      "--judge-url <url>",
      `the OpenAI-compatible endpoint of the model that ${role} (never the system under test)`,
    )
    .option("--judge-model <model>", "the judge's model at that endpoint")
    .option("--judge-key <key>", "the judge's API key (env MEMLANE_JUDGE_KEY)")
    .option(
      "--allow-same-judge",
      "let the judge be the system's own chat model (refused otherwise: a model grading itself is not a measurement)",
    );
}

/**
 * Refuses a judge that is the system under test: the same endpoint and model as `system` (the
 * run's chat setting), unless `--allow-same-judge` says so. A trailing slash does not make a
 * different endpoint.
 */
export function refuseSameJudge(flags: JudgeFlags, system: unknown, what = "the system under test"): void {
  if (flags.allowSameJudge || !flags.judgeUrl || !flags.judgeModel) return;
  if (typeof system !== "object" || system === null || !("baseURL" in system) || !("model" in system)) return;
  const trim = (url: unknown) => String(url).replace(/\/+$/, "");
  if (trim(system.baseURL) === trim(flags.judgeUrl) && system.model === flags.judgeModel)
    throw new InvalidInputError(
      `The judge is ${what} (same endpoint and model, ${flags.judgeModel}): judge with another model, or pass --allow-same-judge to let it grade itself`,
      { field: "judge" },
    );
}

/**
 * The judge the flags name; null without them. `scripted`: a scripted judge (its answer from
 * `scriptedAnswer`, or the model itself) when no endpoint is given. `client`: the endpoint's
 * retries (with the client's backoff on 429 and 5xx) and timeout.
 */
export function judgeFrom(
  flags: JudgeFlags,
  scripted?: (() => string) | ChatModel,
  client: { maxRetries?: number; timeoutMs?: number } = {},
): ChatModel | null {
  if (flags.judgeUrl || flags.judgeModel) {
    if (!flags.judgeUrl || !flags.judgeModel)
      throw new InvalidInputError("--judge-url and --judge-model go together", { field: "judge" });
    return resolveChat({
      baseURL: flags.judgeUrl,
      model: flags.judgeModel,
      apiKey: flags.judgeKey ?? io().env.MEMLANE_JUDGE_KEY,
      ...client,
    });
  }
  if (typeof scripted === "function") return new ScriptedChatModel(scripted, "judge");
  return scripted ?? null;
}
