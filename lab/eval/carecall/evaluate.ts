/**
 * CareCall's evaluation (its Table 3) for one cognition engine: pairwise accuracy against gold
 * labels, and sentence-level set F1 between the memory Algorithm 1 produces and the gold memory.
 * The `accumulate` baseline (APPEND only) is scored in the same run.
 */

import type { Cognition } from "../../../src/cognition/cognition.js";
import {
  PAIR_LABELS_WITH_FUSION,
  type PairLabelWithFusion,
  updateMemory,
} from "../../../src/core/memory-update.js";
import { setF1 } from "../../../src/core/set-f1.js";
import { termOverlap } from "../../../src/core/text.js";
import { addUsage, emptyUsage, type Usage } from "../../../src/core/types.js";
import { ruledPair } from "../../../src/strategies/carecall/carecall.js";
import { classifyPairsStep } from "../../../src/strategies/carecall/steps/classify-pairs.js";
import { fuseStep } from "../../../src/strategies/carecall/steps/fuse.js";
import type { CarecallExample } from "./dataset.js";

export interface PairwiseScore {
  pairs: number;
  /** Accuracy over pairs whose gold label is one of the paper's four. */
  accuracy4: number;
  /** Accuracy over every labelled pair, FUSION included. */
  accuracyAll: number;
  fusionGold: number;
  fusionFound: number;
  /** confusion[gold][predicted] */
  confusion: Record<string, Record<string, number>>;
}

export interface SetF1Score {
  exact: number;
  /** Sentences match when their content words overlap by at least 0.6 (Jaccard): paraphrases count. */
  soft: number;
}

/** One scored pair, kept so folds can be merged and scores broken down by style and label. */
export interface PairRecord {
  style: string;
  gold: PairLabelWithFusion;
  predicted: PairLabelWithFusion;
}

/** One scored episode: set F1 of the produced memory and of the accumulate baseline. */
export interface EpisodeRecord {
  id: string;
  style: string;
  exact: number;
  soft: number;
  baseExact: number;
  baseSoft: number;
}

export interface CarecallReport {
  engine: string;
  fusion: boolean;
  examples: number;
  pairwise: PairwiseScore | null;
  setF1: SetF1Score;
  baseline: { name: "accumulate"; setF1: SetF1Score };
  usage: Usage;
  predictions: { line: number; predicted: string[]; gold: string[] }[];
  pairRecords: PairRecord[];
  episodeRecords: EpisodeRecord[];
}

const soft = (a: string, b: string) => termOverlap(a, b) >= 0.6;

export async function evaluateCarecall(
  examples: CarecallExample[],
  cognition: Cognition,
  options: { fusion?: boolean; rules?: boolean } = {},
): Promise<CarecallReport> {
  const fusion = options.fusion ?? true;
  // The strategy's obvious rules decide first, as in the product; `rules: false` measures the
  // operator alone.
  const useRules = options.rules ?? true;
  let usage = emptyUsage();
  const pairRecords: PairRecord[] = [];
  const episodeRecords: EpisodeRecord[] = [];
  const predictions: CarecallReport["predictions"] = [];
  for (const e of examples) {
    // Classify every (m, s) pair once; the gold pairs are scored from the same answers.
    const all = e.memory.flatMap((m, mi) => e.summary.map((s, si) => ({ mi, si, memory: m, summary: s })));
    const result = all.length
      ? await cognition.run(classifyPairsStep, {
          about: e.about,
          pairs: all.map((p) => ({ memory: p.memory, summary: p.summary })),
          fusion,
        })
      : { value: [], usage: emptyUsage() };
    usage = addUsage(usage, result.usage);
    const label = new Map<string, PairLabelWithFusion>(
      all.map((p, i) => [
        `${p.mi}:${p.si}`,
        (useRules ? ruledPair(p.memory, p.summary, e.about, result.value[i]!.label)?.label : undefined) ??
          result.value[i]!.label,
      ]),
    );
    for (const g of e.pairs ?? [])
      pairRecords.push({
        style: e.style,
        gold: g.op as PairLabelWithFusion,
        predicted: label.get(`${g.m}:${g.s}`)!,
      });
    const update = updateMemory(e.memory.length, e.summary.length, (m, s) => label.get(`${m}:${s}`)!);
    const predicted = [
      ...update.keptMemory.map((m) => e.memory[m]!),
      ...update.addedSummary.map((s) => e.summary[s]!),
    ];
    for (const f of update.fusions) {
      const fused = await cognition.run(fuseStep, {
        about: e.about,
        memory: e.memory[f.memory]!,
        summary: e.summary[f.summary]!,
      });
      usage = addUsage(usage, fused.usage);
      predicted.push(fused.value);
    }
    predictions.push({ line: e.line, predicted, gold: e.gold });
    const accumulated = [...e.memory, ...e.summary];
    episodeRecords.push({
      id: e.id,
      style: e.style,
      exact: setF1(predicted, e.gold).f1,
      soft: setF1(predicted, e.gold, soft).f1,
      baseExact: setF1(accumulated, e.gold).f1,
      baseSoft: setF1(accumulated, e.gold, soft).f1,
    });
  }
  return summarizeCarecall({
    engine: cognition.name,
    fusion,
    usage,
    predictions,
    pairRecords,
    episodeRecords,
  });
}

/** Reports of several folds as one (their records joined, scores recomputed). */
export function mergeCarecallReports(reports: CarecallReport[]): CarecallReport {
  return summarizeCarecall({
    engine: reports[0]!.engine,
    fusion: reports[0]!.fusion,
    usage: reports.reduce((u, r) => addUsage(u, r.usage), emptyUsage()),
    predictions: reports.flatMap((r) => r.predictions),
    pairRecords: reports.flatMap((r) => r.pairRecords),
    episodeRecords: reports.flatMap((r) => r.episodeRecords),
  });
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function summarizeCarecall(r: {
  engine: string;
  fusion: boolean;
  usage: Usage;
  predictions: CarecallReport["predictions"];
  pairRecords: PairRecord[];
  episodeRecords: EpisodeRecord[];
}): CarecallReport {
  const confusion: Record<string, Record<string, number>> = {};
  for (const g of PAIR_LABELS_WITH_FUSION)
    confusion[g] = Object.fromEntries(PAIR_LABELS_WITH_FUSION.map((p) => [p, 0]));
  for (const p of r.pairRecords) confusion[p.gold]![p.predicted]!++;
  const pairs = r.pairRecords.length;
  const four = r.pairRecords.filter((p) => p.gold !== "FUSION");
  const correct = r.pairRecords.filter((p) => p.gold === p.predicted).length;
  const correct4 = four.filter((p) => p.gold === p.predicted).length;
  const e = r.episodeRecords;
  return {
    engine: r.engine,
    fusion: r.fusion,
    examples: e.length,
    pairwise: pairs
      ? {
          pairs,
          accuracy4: four.length ? correct4 / four.length : 0,
          accuracyAll: correct / pairs,
          fusionGold: Object.values(confusion.FUSION!).reduce((a, b) => a + b, 0),
          fusionFound: confusion.FUSION!.FUSION!,
          confusion,
        }
      : null,
    setF1: { exact: mean(e.map((x) => x.exact)), soft: mean(e.map((x) => x.soft)) },
    baseline: {
      name: "accumulate",
      setF1: { exact: mean(e.map((x) => x.baseExact)), soft: mean(e.map((x) => x.baseSoft)) },
    },
    usage: r.usage,
    predictions: r.predictions,
    pairRecords: r.pairRecords,
    episodeRecords: r.episodeRecords,
  };
}

/** The report as Markdown: the table of CareCall's Table 3 shape, plus the confusion matrix. */
export function carecallMarkdown(reports: CarecallReport[]): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const lines = [
    "| engine | pairwise acc. (4-class) | acc. incl. FUSION | set F1 (exact) | set F1 (soft) | model calls | tokens |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of reports) {
    const name = `${r.engine}${r.fusion ? "" : " (no FUSION)"}`;
    lines.push(
      `| ${name} | ${r.pairwise ? pct(r.pairwise.accuracy4) : "–"} | ${r.pairwise ? pct(r.pairwise.accuracyAll) : "–"} | ${pct(r.setF1.exact)} | ${pct(r.setF1.soft)} | ${r.usage.calls} | ${r.usage.promptTokens + r.usage.completionTokens} |`,
    );
  }
  const base = reports[0]!.baseline.setF1;
  lines.push(`| accumulate (APPEND only) | – | – | ${pct(base.exact)} | ${pct(base.soft)} | 0 | 0 |`);
  const first = reports[0]!;
  if (first.pairwise) {
    lines.push(
      "",
      `Confusion matrix, ${first.engine}${first.fusion ? "" : " (no FUSION)"} (rows gold, columns predicted):`,
      "",
      `| gold \\ predicted | ${PAIR_LABELS_WITH_FUSION.join(" | ")} |`,
      `| --- |${PAIR_LABELS_WITH_FUSION.map(() => " ---: |").join("")}`,
    );
    for (const g of PAIR_LABELS_WITH_FUSION)
      lines.push(
        `| ${g} | ${PAIR_LABELS_WITH_FUSION.map((p) => first.pairwise!.confusion[g]![p]).join(" | ")} |`,
      );
  }
  const styles = [...new Set(first.episodeRecords.map((x) => x.style))].sort();
  if (styles.length > 1 || first.pairwise) {
    lines.push(
      "",
      `By style, ${first.engine}${first.fusion ? "" : " (no FUSION)"}:`,
      "",
      "| style | episodes | pairs | acc. (4-class) | acc. incl. FUSION | set F1 (exact) | set F1 (soft) | accumulate F1 (exact) |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const style of styles) {
      const ps = first.pairRecords.filter((p) => p.style === style);
      const four = ps.filter((p) => p.gold !== "FUSION");
      const es = first.episodeRecords.filter((x) => x.style === style);
      const acc = (xs: PairRecord[]) =>
        xs.length ? pct(xs.filter((p) => p.gold === p.predicted).length / xs.length) : "–";
      lines.push(
        `| ${style} | ${es.length} | ${ps.length} | ${acc(four)} | ${acc(ps)} | ${pct(mean(es.map((x) => x.exact)))} | ${pct(mean(es.map((x) => x.soft)))} | ${pct(mean(es.map((x) => x.baseExact)))} |`,
      );
    }
  }
  if (first.pairwise) {
    lines.push(
      "",
      "By label (recall = share of gold pairs found; precision = share of predictions right):",
      "",
    );
    lines.push("| label | gold pairs | recall | precision |", "| --- | ---: | ---: | ---: |");
    for (const g of PAIR_LABELS_WITH_FUSION) {
      const gold = first.pairRecords.filter((p) => p.gold === g);
      const said = first.pairRecords.filter((p) => p.predicted === g);
      const hit = gold.filter((p) => p.predicted === g).length;
      lines.push(
        `| ${g} | ${gold.length} | ${gold.length ? pct(hit / gold.length) : "–"} | ${said.length ? pct(hit / said.length) : "–"} |`,
      );
    }
  }
  return lines.join("\n");
}
