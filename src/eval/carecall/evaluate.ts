/**
 * CareCall's evaluation (its Table 3) for one cognition engine: pairwise accuracy against gold
 * labels, and sentence-level set F1 between the memory Algorithm 1 produces and the gold memory.
 * The `accumulate` baseline (APPEND only) is scored in the same run.
 */

import type { Cognition } from "../../cognition/cognition.js";
import { PAIR_LABELS_WITH_FUSION, type PairLabelWithFusion, updateMemory } from "../../core/memory-update.js";
import { setF1 } from "../../core/set-f1.js";
import { termOverlap } from "../../core/text.js";
import { addUsage, emptyUsage, type Usage } from "../../core/types.js";
import { classifyPairsStep } from "../../strategies/carecall/steps/classify-pairs.js";
import { fuseStep } from "../../strategies/carecall/steps/fuse.js";
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

export interface CarecallReport {
  engine: string;
  fusion: boolean;
  examples: number;
  pairwise: PairwiseScore | null;
  setF1: SetF1Score;
  baseline: { name: "accumulate"; setF1: SetF1Score };
  usage: Usage;
  predictions: { line: number; predicted: string[]; gold: string[] }[];
}

const soft = (a: string, b: string) => termOverlap(a, b) >= 0.6;

export async function evaluateCarecall(
  examples: CarecallExample[],
  cognition: Cognition,
  options: { fusion?: boolean } = {},
): Promise<CarecallReport> {
  const fusion = options.fusion ?? true;
  const confusion: Record<string, Record<string, number>> = {};
  for (const g of PAIR_LABELS_WITH_FUSION)
    confusion[g] = Object.fromEntries(PAIR_LABELS_WITH_FUSION.map((p) => [p, 0]));
  let pairs = 0;
  let correct = 0;
  let pairs4 = 0;
  let correct4 = 0;
  let usage = emptyUsage();
  const exact: number[] = [];
  const softScores: number[] = [];
  const baseExact: number[] = [];
  const baseSoft: number[] = [];
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
      all.map((p, i) => [`${p.mi}:${p.si}`, result.value[i]!.label]),
    );
    for (const g of e.pairs ?? []) {
      const predicted = label.get(`${g.m}:${g.s}`)!;
      confusion[g.op]![predicted]!++;
      pairs++;
      if (predicted === g.op) correct++;
      if (g.op !== "FUSION") {
        pairs4++;
        if (predicted === g.op) correct4++;
      }
    }
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
    exact.push(setF1(predicted, e.gold).f1);
    softScores.push(setF1(predicted, e.gold, soft).f1);
    const accumulated = [...e.memory, ...e.summary];
    baseExact.push(setF1(accumulated, e.gold).f1);
    baseSoft.push(setF1(accumulated, e.gold, soft).f1);
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    engine: cognition.name,
    fusion,
    examples: examples.length,
    pairwise: pairs
      ? {
          pairs,
          accuracy4: pairs4 ? correct4 / pairs4 : 0,
          accuracyAll: correct / pairs,
          fusionGold: Object.values(confusion.FUSION!).reduce((a, b) => a + b, 0),
          fusionFound: confusion.FUSION!.FUSION!,
          confusion,
        }
      : null,
    setF1: { exact: mean(exact), soft: mean(softScores) },
    baseline: { name: "accumulate", setF1: { exact: mean(baseExact), soft: mean(baseSoft) } },
    usage,
    predictions,
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
  return lines.join("\n");
}
