/**
 * `memlane eval carecall` and `memlane eval links`: the pair operator and the relation linker
 * against labelled pairs, by style and by label; `--part` picks the dev or frozen part of a file
 * (split.ts), `--folds k` cross-validates the learned offline model on the chosen part
 * (`--policy` and `--foreign` train the folds' models another way than the shipped one).
 */

import type { Command } from "commander";
import { configFrom, type GlobalOptions } from "../../src/cli/options.js";
import { note, print, printJson } from "../../src/cli/output.js";
import { readText } from "../../src/cli/read-text.js";
import type { Cognition } from "../../src/cognition/cognition.js";
import { OfflineCognition } from "../../src/cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../../src/core/errors.js";
import { resolveEmbedder } from "../../src/engine/config.js";
import { CachedEmbedder } from "../../src/models/cached-embedder.js";
import { parseCarecallJsonl } from "../eval/carecall/dataset.js";
import { carecallMarkdown, evaluateCarecall } from "../eval/carecall/evaluate.js";
import { evaluateLinks, linksMarkdown, parseLinksJsonl } from "../eval/links/evaluate.js";
import {
  crossValidateCarecall,
  crossValidateLinks,
  episodeKey,
  linkKey,
  type Part,
  selectPart,
} from "../eval/memory-ops/cross-validate.js";
import { foreignCount, pairPolicyNamed } from "../eval/memory-ops/train.js";

interface LabelledOptions extends GlobalOptions {
  engine: string;
  part: string;
  folds?: string;
  rules?: boolean;
  policy?: string;
  foreign?: string;
}

const PARTS = ["all", "dev", "frozen"];

function checked(opts: LabelledOptions): { part: Part; folds: number | null } {
  if (!PARTS.includes(opts.part))
    throw new InvalidInputError(`--part must be all, dev or frozen, not "${opts.part}"`);
  const folds = opts.folds === undefined ? null : Number(opts.folds);
  if (folds !== null && !(Number.isInteger(folds) && folds >= 2))
    throw new InvalidInputError(`--folds must be a whole number of at least 2, not "${opts.folds}"`);
  if (folds !== null && opts.engine !== "offline")
    throw new InvalidInputError("--folds trains the offline model; it needs --engine offline");
  if (folds !== null && opts.rules) throw new InvalidInputError("--folds trains a model; --rules uses none");
  return { part: opts.part as Part, folds };
}

function withLabelledOptions(cmd: Command): Command {
  return cmd
    .option("--engine <engine>", "offline | llm (llm needs a chat model)", "offline")
    .option(
      "--part <part>",
      "all | dev | frozen: which part of the file to score (a fixed split by id)",
      "all",
    )
    .option(
      "--folds <k>",
      "cross-validate: train the offline model on k-1 folds, score the k-th, for each fold",
    )
    .option("--rules", "offline: the hand-written rules instead of the trained model");
}

/** Registers both subcommands; `cognitionFor` builds the engine the other eval commands use. */
export function registerLabelledEvals(
  evalCmd: Command,
  cognitionFor: (opts: GlobalOptions & { engine: string }) => Cognition,
): void {
  const embedderFor = (opts: GlobalOptions) => new CachedEmbedder(resolveEmbedder(configFrom(opts).embedder));
  const engineFor = (opts: LabelledOptions) =>
    opts.rules && opts.engine === "offline"
      ? new OfflineCognition(embedderFor(opts), { pairOperator: null, relationLinker: null })
      : cognitionFor(opts);
  const progress = (fold: number, of: number) => note(`fold ${fold} of ${of}: training, then scoring…`);

  withLabelledOptions(
    evalCmd
      .command("carecall <file>")
      .description(
        "pairwise PASS/REPLACE/APPEND/DELETE/FUSION accuracy and set F1 (CareCall Table 3) by style and label, with the accumulate baseline and a no-FUSION ablation",
      ),
  )
    .option(
      "--policy <name>",
      "with --folds: open | evidence | all, how the folds' models decide (default: as shipped)",
    )
    .option(
      "--foreign <n>",
      "with --folds: foreign memories per training episode for the relatedness gate; 0: no gate (default: as shipped)",
    )
    .option(
      "--no-update-rules",
      "the operator alone: leave out the obvious rules (same fact, addition, change, stop) the strategy applies first",
    )
    .action(async (file: string, _o, cmd: Command) => {
      const opts = cmd.optsWithGlobals<LabelledOptions & { updateRules: boolean }>();
      const rules = opts.updateRules;
      const { part, folds } = checked(opts);
      if (!folds && (opts.policy !== undefined || opts.foreign !== undefined))
        throw new InvalidInputError("--policy and --foreign train the folds' models; they need --folds");
      const training = {
        policy: opts.policy === undefined ? undefined : pairPolicyNamed(opts.policy),
        foreign: opts.foreign === undefined ? undefined : foreignCount(opts.foreign),
      };
      const examples = selectPart(parseCarecallJsonl(await readText(file), file), part, episodeKey);
      if (examples.length === 0) throw new InvalidInputError(`the ${part} part of ${file} is empty`);
      let reports: Awaited<ReturnType<typeof evaluateCarecall>>[];
      if (folds) {
        const embedder = embedderFor(opts);
        note(`${folds}-fold cross-validation over ${examples.length} episodes (${part})…`);
        reports = [
          await crossValidateCarecall(examples, folds, embedder, {
            fusion: true,
            rules,
            progress,
            ...training,
          }),
          await crossValidateCarecall(examples, folds, embedder, {
            fusion: false,
            rules,
            progress,
            ...training,
          }),
        ];
      } else {
        const cognition = engineFor(opts);
        note(`scoring ${examples.length} episodes (${part}) with ${cognition.name} cognition…`);
        reports = [
          await evaluateCarecall(examples, cognition, { fusion: true, rules }),
          await evaluateCarecall(examples, cognition, { fusion: false, rules }),
        ];
      }
      if (opts.json) return printJson({ part, folds, reports });
      print(carecallMarkdown(reports));
    });

  withLabelledOptions(
    evalCmd
      .command("links <file>")
      .description(
        "agreement of relation-aware linking (Theanine) with labelled pairs: exact, linked-vs-None, by style and relation",
      ),
  ).action(async (file: string, _o, cmd: Command) => {
    const opts = cmd.optsWithGlobals<LabelledOptions>();
    const { part, folds } = checked(opts);
    const examples = selectPart(parseLinksJsonl(await readText(file), file), part, linkKey);
    if (examples.length === 0) throw new InvalidInputError(`the ${part} part of ${file} is empty`);
    const report = folds
      ? await crossValidateLinks(examples, folds, embedderFor(opts), { progress })
      : await evaluateLinks(examples, engineFor(opts));
    if (opts.json) return printJson({ part, folds, report });
    print(linksMarkdown(report));
  });
}
