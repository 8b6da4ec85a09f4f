/**
 * k-fold cross-validation of the learned offline models on labelled data: for each fold, a model
 * trained on the other folds scores it, and the folds' reports are merged. Splitting follows
 * `split.ts` (groups = style for episodes, style and relation for links).
 */
import type { PairDecisionPolicy } from "../../../src/cognition/offline/learned/pair-model.js";
import { OfflineCognition } from "../../../src/cognition/offline/offline-cognition.js";
import type { Embedder } from "../../../src/models/embedder.js";
import type { CarecallExample } from "../carecall/dataset.js";
import { type CarecallReport, evaluateCarecall, mergeCarecallReports } from "../carecall/evaluate.js";
import { evaluateLinks, type LinkExample, type LinksReport, mergeLinksReports } from "../links/evaluate.js";
import { folds, type SplitKey, splitFrozen } from "./split.js";
import { fitLinkModel, fitPairModel, linkTrainingRows, pairTrainingRows } from "./train.js";

export const episodeKey: SplitKey<CarecallExample> = (e) => ({ id: e.id, group: e.style });
export const linkKey: SplitKey<LinkExample> = (e) => ({ id: e.id, group: `${e.style}/${e.relation}` });

/** Which part of a labelled file to score: all of it, the dev part, or the frozen part. */
export type Part = "all" | "dev" | "frozen";

export function selectPart<T>(items: T[], part: Part, key: SplitKey<T>): T[] {
  if (part === "all") return items;
  return splitFrozen(items, key)[part];
}

export type FoldProgress = (fold: number, of: number) => void;

export async function crossValidateCarecall(
  episodes: CarecallExample[],
  k: number,
  embedder: Embedder,
  options: {
    fusion?: boolean;
    /** The strategy's obvious rules first (default true, as in the product). */
    rules?: boolean;
    progress?: FoldProgress;
    /** How each fold's model is used (default: the shipped policy). */
    policy?: PairDecisionPolicy;
    /** Foreign memories per training episode for the relatedness gate (default: `FOREIGN_MEMORIES`). */
    foreign?: number;
  } = {},
): Promise<CarecallReport> {
  const parts = folds(episodes, k, episodeKey);
  const reports: CarecallReport[] = [];
  for (let f = 0; f < k; f++) {
    options.progress?.(f + 1, k);
    const train = parts.filter((_, i) => i !== f).flat();
    const model = fitPairModel(
      await pairTrainingRows(train, embedder, options.foreign),
      embedder,
      `fold ${f + 1} of ${k}`,
      options.policy,
    );
    const cognition = new OfflineCognition(embedder, { pairOperator: model });
    reports.push(
      await evaluateCarecall(parts[f]!, cognition, { fusion: options.fusion, rules: options.rules }),
    );
  }
  return mergeCarecallReports(reports);
}

export async function crossValidateLinks(
  examples: LinkExample[],
  k: number,
  embedder: Embedder,
  options: { progress?: FoldProgress } = {},
): Promise<LinksReport> {
  const parts = folds(examples, k, linkKey);
  const reports: LinksReport[] = [];
  for (let f = 0; f < k; f++) {
    options.progress?.(f + 1, k);
    const train = parts.filter((_, i) => i !== f).flat();
    const model = fitLinkModel(await linkTrainingRows(train, embedder), embedder, `fold ${f + 1} of ${k}`);
    reports.push(await evaluateLinks(parts[f]!, new OfflineCognition(embedder, { relationLinker: model })));
  }
  return mergeLinksReports(reports);
}
