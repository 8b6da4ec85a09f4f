/** `memlane eval …`: the lab's commands. */
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { readJson, readText } from "../../src/cli/read-text.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveChat, resolveCognition, resolveEmbedder } from "../../src/engine/config.js";
import { loadTranscripts, type TranscriptFormat } from "../../src/engine/ingest/formats/load.js";
import { readLocomo } from "../../src/engine/ingest/formats/locomo.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { TURN_RANKERS, type TurnRanker } from "../../src/retrieval/turn-search.js";
import { type CarecallCandidates, carecallStrategy } from "../../src/strategies/carecall/carecall.js";
import { createStrategy } from "../../src/strategies/registry.js";
import type { Strategy } from "../../src/strategies/strategy.js";
import { type TheanineQuery, theanineStrategy } from "../../src/strategies/theanine/theanine.js";
import { consistencyMarkdown, evaluateConsistency } from "../eval/consistency/evaluate.js";
import { runCreemQa } from "../eval/creem/qa.js";
import { evaluateTyping, parseTypingJsonl, typingMarkdown } from "../eval/creem/typing.js";
import { registerEvalPrivacy } from "../eval/privacy/command.js";
import { recallChart } from "../eval/recall/chart.js";
import {
  ABLATIONS,
  type Ablation,
  evaluateRecall,
  RANKERS_FOR,
  recallMarkdown,
} from "../eval/recall/evaluate.js";
import { cachedExam, examWriter, readExams, writeExam, writeExams } from "../eval/teafarm/exam.js";
import { runTeafarm } from "../eval/teafarm/teafarm.js";
import { transcriptFingerprint } from "../eval/transcript-fingerprint.js";
import { registerEvalCurrency } from "./eval-currency.js";
import { registerEvalEmma } from "./eval-emma.js";
import { registerLabelledEvals } from "./eval-labelled.js";
import { registerEvalMtbenchPlus } from "./eval-mtbench-plus.js";
import { registerEvalPrivacyLeaks } from "./eval-privacy-leaks.js";
import { registerEvalQa } from "./eval-qa.js";
import { registerEvalRules } from "./eval-rules.js";
import { registerEvalSpelling } from "./eval-spelling.js";
import { registerEvalStanding } from "./eval-standing.js";
import { type JudgeFlags, judgeFrom, judgeOptions, refuseSameJudge } from "./judge-model.js";
import { standingOption } from "./standing-flag.js";

export function registerEval(program: Command): void {
  const evalCmd = program.command("eval").description("measure memory mechanisms on data sets (the lab)");
  registerEvalCurrency(evalCmd);
  registerEvalRules(evalCmd);
  registerEvalSpelling(evalCmd);
  registerEvalEmma(evalCmd);
  registerLabelledEvals(evalCmd, cognitionFor);
  registerEvalMtbenchPlus(evalCmd);
  registerEvalPrivacy(evalCmd);
  registerEvalPrivacyLeaks(evalCmd);
  registerEvalQa(evalCmd);
  registerEvalStanding(evalCmd);

  evalCmd
    .command("consistency <file>")
    .description(
      "per strategy: active memories per session, near-duplicate pairs, and pairs a pair judge calls contradictory (a proxy: no NLI model here)",
    )
    .option("--strategies <list>", "strategies to compare", "creem,carecall,accumulate")
    .option("--format <format>", "memlane | locomo | auto", "auto")
    .option("--agent <name>", "for LoCoMo: which speaker is the agent")
    .option("--engine <engine>", "offline | llm (llm needs a chat model)", "offline")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & { strategies: string; format: TranscriptFormat; agent?: string; engine: string }
      >();
      const strategies = strategyList(opts.strategies);
      const transcripts = await loadTranscripts(file, { format: opts.format, agent: opts.agent });
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      const rows = await evaluateConsistency(
        transcripts,
        strategies,
        { embedder, cognition: () => cognitionFor(opts) },
        (line) => note(line),
      );
      await embedder.close?.();
      if (opts.json) return printJson({ rows });
      print(consistencyMarkdown(rows));
    });

  judgeOptions(standingOption(evalCmd.command("creem-qa <file>")), "writes the exam")
    .description(
      "CREEM's multiple-choice probe: an exam written once per session from the dialogue by its own model, answered from each strategy's whole memory (needs a chat model)",
    )
    .option("--strategies <list>", "strategies to compare", "creem,carecall,theanine,accumulate")
    .option("--format <format>", "memlane | locomo | auto", "auto")
    .option("--agent <name>", "for LoCoMo: which speaker is the agent")
    .option("--conversation <n>", "which conversation of the file (0-based; default all)")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions &
          JudgeFlags & {
            strategies: string;
            format: TranscriptFormat;
            agent?: string;
            conversation?: string;
            standing?: boolean;
          }
      >();
      const config = configFrom(opts);
      const chat = resolveChat(config.chat);
      if (!chat)
        throw new InvalidInputError(
          "creem-qa needs a chat model: set --chat-url and --chat-model, or --gguf",
        );
      refuseSameJudge(opts, config.chat);
      const writer = judgeFrom(opts);
      if (!writer && !opts.allowSameJudge)
        throw new InvalidInputError(
          "creem-qa writes its exam with a model of its own: set --judge-url and --judge-model, or pass --allow-same-judge to let the model under test write its own exam",
          { field: "judge" },
        );
      if (!writer) note("--allow-same-judge: the model under test writes its own exam");
      const strategies = strategyList(opts.strategies);
      let transcripts = await loadTranscripts(file, { format: opts.format, agent: opts.agent });
      if (opts.conversation !== undefined)
        transcripts = transcripts.slice(Number(opts.conversation), Number(opts.conversation) + 1);
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
      const reports = [];
      for (const transcript of transcripts)
        reports.push(
          await runCreemQa({
            transcript,
            strategies,
            chat,
            ...(writer ? { writer } : {}),
            embedder,
            standing: opts.standing ?? false,
            onProgress: (l) => note(`${transcript.agent}: ${l}`),
          }),
        );
      await embedder.close?.();
      if (opts.json) return printJson({ reports });
      const total = reports.reduce((n, r) => n + r.questions, 0);
      print(
        `| strategy | questions | correct | "no answer" | accuracy |\n| --- | ---: | ---: | ---: | ---: |`,
      );
      for (const s of strategies) {
        const rows = reports.map((r) => r.rows.find((x) => x.strategy === s)!);
        const correct = rows.reduce((n, r) => n + r.correct, 0);
        const none = rows.reduce((n, r) => n + r.noAnswer, 0);
        print(
          `| ${s} | ${total} | ${correct} | ${none} | ${total ? ((100 * correct) / total).toFixed(1) : "–"} |`,
        );
      }
    });

  evalCmd
    .command("creem-typing [file]")
    .description(
      "offline Blend & Refine typing (New / Redundant / Updated and the retired memories) against labelled lines, per split, type and style",
    )
    .action(async (file: string | undefined, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const path = file ?? new URL("../data/creem/typing.jsonl", import.meta.url).pathname;
      const examples = parseTypingJsonl(await readText(path), path);
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      note(`typing ${examples.length} insights offline with ${embedder.name}…`);
      const report = await evaluateTyping(examples, embedder);
      await embedder.close?.();
      if (opts.json) return printJson(report);
      print(typingMarkdown(report));
    });

  judgeOptions(standingOption(evalCmd.command("teafarm <file>")), "writes the exam and judges the replies")
    .description(
      "TeaFarm: one counterfactual exam per conversation, written from the sessions themselves and put to every strategy, each question in its own new session; the exam is written and judged by the judge model (offline without one) and cached per conversation and writer",
    )
    .option("--format <format>", "memlane | locomo | auto", "auto")
    .option("--agent <name>", "for LoCoMo: which speaker is the agent")
    .option("--conversation <n>", "which conversation of the file (0-based; default all)")
    .option("--questions <n>", "counterfactual questions per conversation", "5")
    .option(
      "--strategies <list>",
      "strategies that sit the same exam (gold: the reply sees the exam's gold memory); default --strategy or theanine",
    )
    .option(
      "--exam <file>",
      "exam cache, by conversation and exam writer: an exam it holds is sat again, others are written and kept",
      "memlane-teafarm-exams.json",
    )
    .option("--no-exam", "keep no exam (each run writes its own)")
    .option("--no-relations", "theanine ablation: link memories by similarity only")
    .option("--no-refine", "theanine ablation: do not refine timelines")
    .option("--theanine-query <query>", "theanine recall query: context | last-utterance", "context")
    .option("--carecall-candidates <which>", "carecall: top5 | all (every memory-sentence pair)", "top5")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions &
          JudgeFlags & {
            format: TranscriptFormat;
            agent?: string;
            conversation?: string;
            questions: string;
            strategies?: string;
            exam: string | false;
            relations: boolean;
            refine: boolean;
            theanineQuery: string;
            carecallCandidates: string;
            standing?: boolean;
          }
      >();
      const config = configFrom(opts);
      const chat = resolveChat(config.chat);
      const questions = Number(opts.questions);
      if (!Number.isInteger(questions) || questions < 1)
        throw new InvalidInputError(`--questions must be a positive whole number, not "${opts.questions}"`);
      const names = (opts.strategies ?? opts.strategy ?? "theanine").split(",").map((x) => x.trim());
      const strategyFor = variantsFrom(opts);
      for (const n of names) if (n !== "gold") strategyFor(n);
      let transcripts = await loadTranscripts(file, { format: opts.format, agent: opts.agent });
      if (opts.conversation !== undefined) {
        const n = Number(opts.conversation);
        if (!transcripts[n])
          throw new InvalidInputError(
            `--conversation ${opts.conversation} is not in ${file} (it has ${transcripts.length})`,
          );
        transcripts = [transcripts[n]!];
      }
      const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
      const cognition = resolveCognition(config, chat, embedder);
      // The exam's writer and judge: a model of its own, or the offline writer and judge.
      refuseSameJudge(opts, config.chat);
      const judge = judgeFrom(opts);
      if (chat && !judge)
        note("no judge model (--judge-url, --judge-model): the exam is written and judged offline");
      const writer = examWriter(judge);
      const cached = opts.exam ? await readExams(opts.exam) : [];
      const exams = [];
      const reports = [];
      for (const transcript of transcripts) {
        const progress = (step: string) => note(`${transcript.agent}: ${step}`);
        const fingerprint = transcriptFingerprint(transcript);
        let exam = cachedExam(cached, fingerprint, writer);
        if (exam)
          progress(`reusing the exam in ${opts.exam} (${exam.questions.length} questions, ${exam.writer})`);
        exam ??= await writeExam(transcript, {
          embedder,
          chat: judge,
          questions,
          onProgress: progress,
        });
        exams.push(exam);
        if (opts.exam) await writeExams(opts.exam, [exam]);
        for (const n of names)
          reports.push(
            await runTeafarm({
              transcript,
              chat,
              judge,
              cognition,
              embedder,
              exam,
              strategy: n === "gold" ? "gold" : strategyFor(n),
              standing: opts.standing ?? false,
              onProgress: progress,
            }),
          );
      }
      await embedder.close?.();
      if (opts.json) return printJson({ exams, reports: reports.map(({ exam: _, ...r }) => r) });
      const variant = (n: string) =>
        n === "theanine"
          ? `${opts.relations ? "" : " (no relations)"}${opts.refine ? "" : " (no refine)"}${opts.theanineQuery === "context" ? "" : ` (query ${opts.theanineQuery})`}`
          : n === "carecall" && opts.carecallCandidates !== "top5"
            ? ` (candidates ${opts.carecallCandidates})`
            : "";
      const rate = (x: number | null) => (x === null ? "–" : (100 * x).toFixed(1));
      print(
        "| conversation | strategy | questions | correct | correct rate | grounded | stale first |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |",
      );
      for (const r of reports) {
        const stale = r.items.filter((x) => x.staleFirst !== null);
        print(
          `| ${r.agent} & ${r.partner} | ${r.strategy}${variant(r.strategy)} | ${r.items.length} | ${r.items.filter((x) => x.correct).length} | ${rate(r.correctRate)} | ${rate(r.groundedRate)} | ${stale.length ? rate(stale.filter((x) => x.staleFirst).length / stale.length) : "–"} |`,
        );
      }
      if (transcripts.length > 1)
        for (const n of names) {
          const items = reports.filter((r) => r.strategy === n).flatMap((r) => r.items);
          print(
            `${n}${variant(n)}: correct rate ${rate(items.filter((x) => x.correct).length / Math.max(1, items.length))} % of ${items.length}`,
          );
        }
      print(
        `\nexam: ${exams.reduce((k, e) => k + e.questions.length, 0)} questions written by ${[...new Set(exams.map((e) => e.writer))].join(", ")}, judged ${judge ? `by ${judge.name}` : "offline"}${opts.exam ? ` · cached in ${opts.exam}` : ""}`,
      );
      if (exams.some((e) => e.writer === "offline"))
        print(
          "offline exam: its questions pair a statement with a later one about the same person, so it measures whether a reply restates the later fact, not whether it resists a counterfactual premise; repeated runs give the same figures (the encoder's vectors do not depend on their batch, and theanine samples with a seed from each memory's content)",
        );
    });

  evalCmd
    .command("recall <file>")
    .description(
      "turn-level recall@k on a LoCoMo file (categories 1-4), hybrid against BM25-only, dense-only and RRF, with a chart",
    )
    .option("--k <list>", "cut-offs", "1,5,10,25")
    .option(
      "--units <units>",
      "turns (raw turns) | memories (a strategy's memories, scored through their source turns)",
      "turns",
    )
    .option(
      "--rankers <list>",
      `rankers to compare (turns: ${TURN_RANKERS.join(",")}; memories: bm25,dense,rrf)`,
    )
    .option(
      "--ablations [signals]",
      `also run the hybrid without each signal (${ABLATIONS.join(",")}; all when none are named; cover: memories only)`,
    )
    .option(
      "--turns <list>",
      "memories: also run recall({ turns: n }) for each n (at each k, k - n memories, then the turns they missed)",
    )
    .option("--chart <file>", "where to write the SVG chart of recall@10", "memlane-recall.svg")
    .option("--rules", "memories: the offline engine's hand-written rules instead of its trained models")
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<
        GlobalOptions & {
          k: string;
          rankers?: string;
          chart: string;
          units: string;
          ablations?: string | true;
          turns?: string;
          rules?: boolean;
        }
      >();
      // All, when none are named: those that apply to the units (`cover` is for memories only).
      const ablations = (
        opts.ablations === undefined
          ? []
          : opts.ablations === true
            ? ABLATIONS.filter((a) => a !== "cover" || opts.units === "memories")
            : opts.ablations.split(",")
      ) as Ablation[];
      const unknownSignals = ablations.filter((a) => !ABLATIONS.includes(a));
      if (unknownSignals.length)
        throw new InvalidInputError(
          `Unknown signal(s) ${unknownSignals.join(", ")} for --ablations; use ${ABLATIONS.join(", ")}`,
        );
      if (opts.units !== "turns" && opts.units !== "memories")
        throw new InvalidInputError(`--units must be turns or memories, not "${opts.units}"`);
      const ks = opts.k.split(",").map(Number);
      const rankers = (opts.rankers ?? RANKERS_FOR[opts.units].join(",")).split(",") as TurnRanker[];
      const unknown = rankers.filter((r) => !TURN_RANKERS.includes(r));
      if (unknown.length)
        throw new InvalidInputError(
          `Unknown ranker(s) ${unknown.join(", ")}; use ${TURN_RANKERS.join(", ")}`,
        );
      const raw = await readJson(file);
      const samples = readLocomo(raw);
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      const report = await evaluateRecall(samples, embedder, {
        ks,
        rankers,
        units: opts.units,
        strategy: opts.strategy,
        ablations,
        turns: opts.turns?.split(",").map(Number),
        ...(opts.rules
          ? { cognition: new OfflineCognition(embedder, { pairOperator: null, relationLinker: null }) }
          : {}),
        onProgress: (s) => note(s),
      });
      const chartK = ks.includes(10) ? 10 : ks.at(-1)!;
      await writeFile(opts.chart, recallChart(report, chartK));
      if (opts.json) return printJson({ ...report, chart: opts.chart });
      print(recallMarkdown(report));
      print(`\nchart: ${opts.chart} · ${(report.elapsedMs / 1000).toFixed(1)} s`);
    });
}

/** A comma-separated list of built-in strategy names, each checked (an unknown one names the choices). */
function strategyList(list: string): string[] {
  const names = list.split(",").map((s) => s.trim());
  for (const name of names) createStrategy(name);
  return names;
}

/** The cognition engine an eval command asks for (offline, or llm with a configured model). */
function cognitionFor(opts: GlobalOptions & { engine: string }) {
  if (opts.engine !== "offline" && opts.engine !== "llm")
    throw new InvalidInputError(`--engine must be offline or llm, not "${opts.engine}"`);
  const config = configFrom({ ...opts, cognition: opts.engine });
  return resolveCognition(
    config,
    resolveChat(config.chat),
    new CachedEmbedder(resolveEmbedder(config.embedder)),
  );
}

/**
 * Built-in strategies by name with the variant flags applied (theanine: --no-relations,
 * --no-refine, --theanine-query; carecall: --carecall-candidates); the flags are checked first.
 */
function variantsFrom(opts: {
  relations?: boolean;
  refine?: boolean;
  theanineQuery?: string;
  carecallCandidates?: string;
}): (name: string) => Strategy {
  const query = opts.theanineQuery ?? "context";
  if (query !== "context" && query !== "last-utterance")
    throw new InvalidInputError(`--theanine-query must be context or last-utterance, not "${query}"`);
  const candidates = opts.carecallCandidates ?? "top5";
  if (candidates !== "top5" && candidates !== "all")
    throw new InvalidInputError(`--carecall-candidates must be top5 or all, not "${candidates}"`);
  return (name) =>
    name === "theanine"
      ? theanineStrategy({
          relationAware: opts.relations ?? true,
          refine: opts.refine ?? true,
          query: query as TheanineQuery,
        })
      : name === "carecall"
        ? carecallStrategy({ candidates: candidates as CarecallCandidates })
        : createStrategy(name);
}
