/**
 * `memlane eval emma [file]` (mixed-session recall: EMMA against carecall, theanine and creem on
 * the same episodes) and `memlane eval emma-links [file]` (EMMA's offline related-or-not link
 * judgement against labelled pairs).
 */
import type { Command } from "commander";
import { configFrom, type GlobalOptions, wholeNumber } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { progress } from "../../src/cli/progress.js";
import { readText } from "../../src/cli/read-text.js";
import { LlmCognition } from "../../src/cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveChat, resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { EMMA_SALIENCE } from "../../src/strategies/emma/emma.js";
import {
  DEFAULT_JUDGE,
  LINK_JUDGES,
  type LinkJudge,
  RELATED_THRESHOLDS,
} from "../../src/strategies/emma/steps/link.js";
import { emmaScriptedSteps } from "../../src/testing/emma-scripted.js";
import { scriptedLlm } from "../../src/testing/scripted-llm.js";
import { loadEmmaEpisodes } from "../eval/emma/dataset.js";
import { EMMA_COMPARED, emmaMarkdown, evaluateEmma } from "../eval/emma/evaluate.js";
import {
  agreementAt,
  bestThreshold,
  emmaPairsPart,
  evaluateRelatedness,
  linkAgreementMarkdown,
  memoryOpsPairs,
  parseEmmaLinks,
} from "../eval/emma/links.js";
import { requireSharedData } from "../shared-data.js";
import { standingOption } from "./standing-flag.js";

const DATA = (file: string) => new URL(`../data/emma/${file}`, import.meta.url).pathname;

const number = (value: string, flag: string) => {
  const n = Number(value);
  if (!Number.isFinite(n))
    throw new InvalidInputError(`${flag} must be a number, not "${value}"`, { field: flag.slice(2) });
  return n;
};

const share = (value: string, flag: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new InvalidInputError(`${flag} must be a number from 0 to 1, not "${value}"`, {
      field: flag.slice(2),
    });
  return n;
};

export function registerEvalEmma(evalCmd: Command): void {
  standingOption(evalCmd.command("emma [file]"))
    .description(
      "mixed sessions: questions asked while talking with one partner about what another said or how something developed; hit@1, hit@k, wrong-person rate for emma, carecall, theanine, creem (tune / test episodes)",
    )
    .option("--strategies <list>", "strategies to compare", EMMA_COMPARED.join(","))
    .option("--k <n>", "retrieved memories that count for hit@k", "5")
    .option("--part <part>", "all | tune | test: which episodes (a fixed split by id)", "all")
    .option(
      "--engine <engine>",
      "offline | scripted (LLM engine, scripted model: calls and tokens) | llm",
      "offline",
    )
    .option("--hops <n>", "emma: link hops added around the top memory", "1")
    .option(
      "--judge <judge>",
      `emma offline: how pairs are judged related: ${LINK_JUDGES.join(" | ")}`,
      DEFAULT_JUDGE,
    )
    .option("--min-related <x>", "emma offline: least relatedness for a link (default: the judge's)")
    .option("--shortlist <n>", "emma: older memories each new one is judged against", "8")
    .option(
      "--min-salience <x>",
      "emma offline: least salience for a sentence to become a memory",
      String(EMMA_SALIENCE),
    )
    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & {
          strategies: string;
          k: string;
          part: string;
          engine: string;
          hops: string;
          minRelated?: string;
          judge: string;
          shortlist: string;
          minSalience: string;
          standing?: boolean;
        }
      >();
      const path = file ?? DATA("episodes.json");
      const strategies = opts.strategies
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      for (const s of strategies)
        if (!(EMMA_COMPARED as readonly string[]).includes(s))
          throw new InvalidInputError(`eval emma compares ${EMMA_COMPARED.join(", ")}; not "${s}"`, {
            field: "strategies",
          });
      if (!["all", "tune", "test"].includes(opts.part))
        throw new InvalidInputError(`--part must be all, tune or test, not "${opts.part}"`, {
          field: "part",
        });
      const k = wholeNumber(opts.k, "k", 1);
      const emma = {
        hops: wholeNumber(opts.hops, "hops", 0),
        judge: checkedJudge(opts.judge),
        ...(opts.minRelated === undefined ? {} : { minRelated: share(opts.minRelated, "--min-related") }),
        shortlist: wholeNumber(opts.shortlist, "shortlist", 0),
        minSalience: number(opts.minSalience, "--min-salience"),
      };
      const episodes = (await loadEmmaEpisodes(path)).filter(
        (e) => opts.part === "all" || e.part === opts.part,
      );
      const config = configFrom(opts);
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
      const cognition = cognitionMaker(opts.engine, config, embedder);
      note(
        `eval emma: ${episodes.length} episodes, ${episodes.reduce((n, e) => n + e.questions.length, 0)} questions, ${strategies.join(", ")} (${opts.engine}, ${embedder.name})`,
      );
      const bar = progress("emma");
      try {
        const report = await evaluateEmma(episodes, {
          embedder,
          cognition,
          strategies,
          k,
          emma,
          standing: opts.standing ?? false,
          onProgress: (done, total, label) => bar.update(done, total, label),
        });
        bar.stop();
        if (opts.json) return printJson(report);
        print(emmaMarkdown(report));
      } finally {
        bar.stop();
        await embedder.close?.();
      }
    });

  evalCmd
    .command("emma-links [file]")
    .description(
      "EMMA's offline link judgement (related or not) against labelled pairs: data/emma/links.jsonl (tune / test by id) or a memory-ops link file (--source memory-ops, its dev / frozen split)",
    )
    .option("--source <source>", "emma | memory-ops: the file's format", "emma")
    .option("--part <part>", "emma: all | tune | test; memory-ops: all | dev | frozen", "all")
    .option("--judge <judge>", `how pairs are judged related: ${LINK_JUDGES.join(" | ")}`, DEFAULT_JUDGE)
    .option("--threshold <x>", "least relatedness for a link (default: the judge's)")
    .option("--choose", "emma source: choose the threshold on the tune part and report the test part at it")
    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { source: string; part: string; threshold?: string; judge: string; choose?: boolean }
      >();
      const judge = checkedJudge(opts.judge);
      const threshold =
        opts.threshold === undefined ? RELATED_THRESHOLDS[judge] : share(opts.threshold, "--threshold");
      if (opts.source !== "emma" && opts.source !== "memory-ops")
        throw new InvalidInputError(`--source must be emma or memory-ops, not "${opts.source}"`, {
          field: "source",
        });
      const parts = opts.source === "emma" ? ["all", "tune", "test"] : ["all", "dev", "frozen"];
      if (!parts.includes(opts.part))
        throw new InvalidInputError(`--part must be one of ${parts.join(", ")} for --source ${opts.source}`, {
          field: "part",
        });
      const path =
        file ??
        (opts.source === "emma"
          ? DATA("links.jsonl")
          : requireSharedData("memory-ops/links-train.jsonl", "the memory-ops link file"));
      const text = await readText(path);
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      try {
        const kit = { embedder };
        if (opts.source === "memory-ops") {
          const pairs = memoryOpsPairs(text, opts.part as "all" | "dev" | "frozen", path);
          note(`emma-links: ${pairs.length} memory-ops pairs (${opts.part}), ${embedder.name}`);
          const r = await evaluateRelatedness(pairs, kit, threshold, judge);
          if (opts.json) return printJson(r);
          return print(linkAgreementMarkdown(`memory-ops ${opts.part} part, ${path}, judge ${judge}`, r));
        }
        const all = parseEmmaLinks(text, path);
        if (opts.choose) {
          const tune = emmaPairsPart(all, "tune");
          const test = emmaPairsPart(all, "test");
          note(`emma-links: choosing on ${tune.length} tune pairs, reporting ${test.length} test pairs`);
          const tuned = await evaluateRelatedness(tune, kit, threshold, judge);
          const chosen = bestThreshold(tuned.scores.map((s, i) => ({ ...s, style: tune[i]!.style })));
          const scored = await evaluateRelatedness(test, kit, chosen, judge);
          const atDefault = agreementAt(
            scored.scores.map((s, i) => ({ ...s, style: test[i]!.style })),
            threshold,
          );
          if (opts.json)
            return printJson({
              chosen,
              tune: agreementAt(
                tuned.scores.map((s, i) => ({ ...s, style: tune[i]!.style })),
                chosen,
              ),
              test: scored,
              testAtGiven: atDefault,
            });
          print(
            linkAgreementMarkdown(
              `tune part at the chosen threshold ${chosen}`,
              agreementAt(
                tuned.scores.map((s, i) => ({ ...s, style: tune[i]!.style })),
                chosen,
              ),
            ),
          );
          print("");
          print(linkAgreementMarkdown(`test part at the chosen threshold ${chosen}`, scored));
          print("");
          return print(linkAgreementMarkdown(`test part at --threshold ${threshold}`, atDefault));
        }
        const pairs = emmaPairsPart(all, opts.part as "all" | "tune" | "test");
        note(`emma-links: ${pairs.length} EMMA pairs (${opts.part}), ${embedder.name}`);
        const r = await evaluateRelatedness(pairs, kit, threshold, judge);
        if (opts.json) return printJson(r);
        print(linkAgreementMarkdown(`EMMA pairs, ${opts.part} part, ${path}, judge ${judge}`, r));
      } finally {
        await embedder.close?.();
      }
    });
}

function checkedJudge(value: string): LinkJudge {
  if (!(LINK_JUDGES as string[]).includes(value))
    throw new InvalidInputError(`--judge must be one of ${LINK_JUDGES.join(", ")}, not "${value}"`, {
      field: "judge",
    });
  return value as LinkJudge;
}

/** A fresh cognition per store: offline, the LLM engine over the scripted model, or over the configured model. */
function cognitionMaker(engine: string, config: ReturnType<typeof configFrom>, embedder: CachedEmbedder) {
  if (engine === "offline") return () => new OfflineCognition(embedder);
  if (engine === "scripted") return () => new LlmCognition(scriptedLlm({ byName: emmaScriptedSteps() }));
  if (engine === "llm") {
    const chat = resolveChat(config.chat);
    if (!chat)
      throw new InvalidInputError(
        "--engine llm needs a chat model: set --chat-url and --chat-model, or --gguf",
      );
    return () => new LlmCognition(chat, { retries: config.retries });
  }
  throw new InvalidInputError(`--engine must be offline, scripted or llm, not "${engine}"`, {
    field: "engine",
  });
}
