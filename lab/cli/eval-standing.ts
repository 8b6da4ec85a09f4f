/** `memlane eval standing`: standing instructions and preferences, detected and served (lab/eval/standing). */
import { basename, join } from "node:path";
import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { readJson, readText } from "../../src/cli/read-text.js";
import { shippedStandingModel } from "../../src/cognition/offline/learned/standing-model.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import {
  type ConversationReport,
  type DetectorReport,
  evaluateConversations,
  evaluateDetector,
  evaluateFalseAlarms,
  type FalseAlarmReport,
  SPLIT,
} from "../eval/standing/evaluate.js";
import { chatNegatives, fitStandingModel, parseStandingSentences } from "../eval/standing/train.js";
import { sharedDataPath } from "../shared-data.js";

const DEFAULT_DIR = new URL("../data/standing-dev/", import.meta.url).pathname;
const DEFAULT_NEGATIVES = new URL("../data/recall-dev/conversations.json", import.meta.url).pathname;

function falseAlarmMarkdown(r: FalseAlarmReport, file: string): string {
  return [
    `False alarms in talk with no standing instructions (${basename(file)}, ${r.conversations} conversations, ${r.partnerTurns} partner turns): ${r.itemsRead} items read (${((1000 * r.itemsRead) / Math.max(1, r.partnerTurns)).toFixed(1)} per 1,000 turns), ${r.inForceAtEnd} in force at the end.`,
    ...(r.examples.length ? ["", "Some of them:", ...r.examples.map((e) => `- ${e}`)] : []),
  ].join("\n");
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;

function detectorMarkdown(r: DetectorReport): string {
  return [
    `Detector on ${r.embedder ? `parse features and ${r.embedder} vectors` : "parse features alone"}, ${r.folds}-fold cross-validation over ${r.utterances} utterances (threshold ${r.threshold}; accuracy ${pct(r.accuracy)} %, macro F1 ${pct(r.macroF1)}):`,
    "",
    "| label | precision | recall | F1 | utterances |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...Object.entries(r.perLabel).map(
      ([label, m]) => `| ${label} | ${pct(m.precision)} | ${pct(m.recall)} | ${pct(m.f1)} | ${m.support} |`,
    ),
    "",
    "| style | standing read as standing, % | utterances | none read as standing, % | utterances |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...Object.keys(r.recallByStyle).map(
      (style) =>
        `| ${style || "(none)"} | ${pct(r.recallByStyle[style]!.recall)} | ${r.recallByStyle[style]!.support} | ${pct(r.falseAlarmsByStyle[style]!.rate)} | ${r.falseAlarmsByStyle[style]!.support} |`,
    ),
  ].join("\n");
}

function conversationMarkdown(r: ConversationReport, part: string): string {
  const rows = Object.entries(r.conditions).flatMap(([placement, byCondition]) =>
    Object.entries(byCondition).map(
      ([name, c]) =>
        `| ${placement} | ${name} | ${c.probes} | ${pct(c.served / Math.max(1, c.probes))} | ${c.withSuperseded ? `${pct(c.stale / c.withSuperseded)} (${c.stale} of ${c.withSuperseded})` : "–"} |`,
    ),
  );
  return [
    `Probes (${part} conversations): is the version in force shown to the reply ("served"), and is a superseded version shown as a standing item in force ("stale")?`,
    "",
    "| asked | the reply is shown | asks | served, % | stale, % of asks with an older version |",
    "| --- | --- | ---: | ---: | ---: |",
    ...rows,
    "",
    `Standing items in force per ask: ${r.shownPerProbe.toFixed(1)}; of those, ${pct(r.shownNamed)} % come from a turn some probe names (a lower bound on their precision).`,
  ].join("\n");
}

export function registerEvalStanding(evalCmd: Command): void {
  evalCmd
    .command("standing [dir]")
    .description(
      "standing instructions and preferences: the offline detector by cross-validation over labelled utterances, and whether later requests get the version in force (default data: lab/data/standing-dev)",
    )
    .option("--folds <k>", "cross-validation folds for the detector", "5")
    .option("--part <part>", "conversations to ask: report (the held-out half), tune, or all", "report")
    .option("--memory <strategy>", "the memory strategy beside standing items", "carecall")
    .option("-k <k>", "hits of recall in the recall conditions", "10")
    .option(
      "--negatives <file>",
      "LoCoMo-format talk between friends added to training as none (default lab/data/recall-dev/conversations.json)",
    )
    .option(
      "--chat <file>",
      "LoCoMo-format talk with no standing instructions: every item read there is a false alarm (default locomo-dev in MEMLANE_SHARED_DATA, when set)",
    )
    .option(
      "--replace-at <cosine>",
      "least cosine for a new item to replace one in force (default: the model's)",
    )
    .option(
      "--revoke-at <cosine>",
      "least cosine for a taking-back to remove one in force (default: the model's)",
    )
    .action(async (dir: string | undefined, o: Record<string, string>, cmd: Command) => {
      const opts = cmd.optsWithGlobals<GlobalOptions>();
      const at = dir ?? DEFAULT_DIR;
      const folds = Number(o.folds);
      if (!Number.isInteger(folds) || folds < 2)
        throw new InvalidInputError("--folds takes a whole number of 2 or more");
      const picks = { report: SPLIT.report, tune: SPLIT.tune, all: () => true } as const;
      const pick = picks[o.part as keyof typeof picks];
      if (!pick) throw new InvalidInputError(`--part takes report, tune or all, not "${o.part}"`);
      const sentencesFile = join(at, "sentences.jsonl");
      const labelled = parseStandingSentences(await readText(sentencesFile), sentencesFile);
      const rows = [...labelled, ...chatNegatives(await readJson(o.negatives ?? DEFAULT_NEGATIVES))];
      const embedder = new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
      note(`cross-validating the detectors over ${rows.length} utterances…`);
      const detectors = [
        await evaluateDetector(rows, null, folds),
        await evaluateDetector(rows, embedder, folds),
      ];
      const threshold = (flag: string) => {
        if (o[flag] === undefined) return undefined;
        const v = Number(o[flag]);
        if (!Number.isFinite(v) || v < -1 || v > 1)
          throw new InvalidInputError(`--${flag} takes a cosine between -1 and 1`);
        return v;
      };
      const base =
        shippedStandingModel() ?? (await fitStandingModel(rows, "sentences.jsonl and chat", embedder));
      const model = {
        ...base,
        replaceAt: threshold("replaceAt") ?? base.replaceAt,
        revokeAt: threshold("revokeAt") ?? base.revokeAt,
      };
      const conversations = await evaluateConversations(
        await readJson(join(at, "conversations.json")),
        embedder,
        model,
        { strategy: o.memory, k: Number(o.k), pick, onProgress: note },
      );
      const chatFile = o.chat ?? sharedDataPath("locomo-dev/locomo-dev.json");
      const falseAlarms = chatFile
        ? await evaluateFalseAlarms(await readJson(chatFile), embedder, model)
        : null;
      await embedder.close?.();
      const report = {
        falseAlarms,
        detectors,
        part: o.part,
        model: { replaceAt: model.replaceAt, revokeAt: model.revokeAt },
        conversations,
      };
      if (opts.json) return printJson(report);
      print(
        [
          ...detectors.map(detectorMarkdown),
          conversationMarkdown(conversations, o.part ?? "report"),
          ...(falseAlarms ? [falseAlarmMarkdown(falseAlarms, chatFile!)] : []),
        ].join("\n\n"),
      );
    });
}
