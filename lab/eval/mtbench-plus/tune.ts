/**
 * Choosing memochat's offline knobs on the tuning half only: the segmentation cut (each value a
 * full replay, since it changes the memo) and, on the memo each cut wrote, the chooser's
 * none-of-the-others threshold and relative gate (swept on recorded scores: the choice changes no
 * memo — offline, the replies it shapes feed neither the segmentation nor the summaries). The
 * objective weighs two kinds of question equally: the final long-range questions (exact option
 * F1 against their topics' entries) and every new topic's first question (right when nothing is
 * chosen: no earlier entry relates to it, so none-of-the-others is the answer). MT-Bench+'s
 * final questions alone would always favour choosing something; ties go to turn recall.
 */
import type { Memory } from "../../../src/core/types.js";
import { memochatStrategy, memoOf } from "../../../src/strategies/memochat/memochat.js";
import {
  CHOOSER_DEFAULTS,
  chooseByScore,
  scoreOptions,
} from "../../../src/strategies/memochat/offline-chooser.js";
import type { TopicOption } from "../../../src/strategies/memochat/steps/choose-topics.js";
import type { MtbenchConversation } from "./dataset.js";
import { type MtbenchPorts, type MtbenchProgress, playConversation, scoreRecall } from "./evaluate.js";

export interface TuneGrid {
  cuts: number[];
  thresholds: number[];
  gates: number[];
}

export const DEFAULT_GRID: TuneGrid = {
  cuts: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
  thresholds: Array.from({ length: 13 }, (_, i) => Number((0.05 + 0.05 * i).toFixed(2))),
  gates: [0, 0.5, 0.6, 0.7, 0.8, 0.9],
};

export interface TunePoint {
  cut: number;
  threshold: number;
  gate: number;
  /** Mean of the final questions' option F1 and the new-topic questions' none-right share. */
  objective: number;
  optionF1: number;
  noneRight: number;
  turnRecall: number;
  turnPrecision: number;
  /** Memo entries per conversation at this cut. */
  entries: number;
}

export interface TuneReport {
  conversations: string[];
  /** New topics' first questions asked with a memo (at the chosen cut). */
  openings: number;
  /** The best point of each cut. */
  byCut: TunePoint[];
  best: TunePoint;
}

interface Played {
  memos: Memory[];
  gold: Set<string>;
  /** The final question's score per option. */
  scores: Record<number, number>;
  /** Each new-topic question's scores over the entries the memo held then. */
  openings: Record<number, number>[];
}

export async function tuneMemochat(
  conversations: MtbenchConversation[],
  ports: MtbenchPorts,
  grid: TuneGrid = DEFAULT_GRID,
  onProgress?: (p: MtbenchProgress) => void,
): Promise<TuneReport> {
  const total = grid.cuts.length * conversations.length;
  let done = 0;
  const byCut: { point: TunePoint; openings: number }[] = [];
  for (const cut of grid.cuts) {
    const strategy = memochatStrategy({ cut });
    const played: Played[] = [];
    for (const conv of conversations) {
      onProgress?.({ done: done++, total, label: `cut ${cut}: ${conv.id}` });
      const p = await playConversation(conv, strategy, ports);
      const memos = p.memories.filter((m) => memoOf(m));
      const openings = [];
      for (const o of p.openings) {
        const known = new Set(o.memoryIds);
        openings.push(
          await scoreOptions(o.query, optionsOf(memos.filter((m) => known.has(m.id))), ports.embedder),
        );
      }
      played.push({
        memos,
        gold: p.gold,
        scores: await scoreOptions(conv.final.text, optionsOf(memos), ports.embedder),
        openings,
      });
    }
    let best: TunePoint | null = null;
    for (const threshold of grid.thresholds)
      for (const gate of grid.gates) {
        const chooser = { threshold, gate, max: CHOOSER_DEFAULTS.max };
        const scored = played.map((p) =>
          scoreRecall(
            chooseByScore(p.scores, chooser).map((n) => p.memos[n - 1]!),
            p.gold,
            p.memos,
          ),
        );
        const nothing = played.flatMap((p) =>
          p.openings.map((o) => (chooseByScore(o, chooser).length ? 0 : 1)),
        );
        const optionF1 = mean(scored.map((s) => s.optionF1));
        const noneRight = mean(nothing);
        const point: TunePoint = {
          cut,
          threshold,
          gate,
          objective: (optionF1 + noneRight) / 2,
          optionF1,
          noneRight,
          turnRecall: mean(scored.map((s) => s.turnRecall)),
          turnPrecision: mean(scored.map((s) => s.turnPrecision)),
          entries: mean(played.map((p) => p.memos.length)),
        };
        if (
          !best ||
          point.objective > best.objective + 1e-9 ||
          (Math.abs(point.objective - best.objective) <= 1e-9 && point.turnRecall > best.turnRecall)
        )
          best = point;
      }
    byCut.push({ point: best!, openings: played.reduce((n, p) => n + p.openings.length, 0) });
  }
  onProgress?.({ done, total, label: "done" });
  const best = [...byCut].sort(
    (a, b) => b.point.objective - a.point.objective || b.point.turnRecall - a.point.turnRecall,
  )[0]!;
  return {
    conversations: conversations.map((c) => c.id),
    openings: best.openings,
    byCut: byCut.map((c) => c.point),
    best: best.point,
  };
}

/** Entries as numbered options (scores need no none-of-the-others option). */
function optionsOf(memos: Memory[]): TopicOption[] {
  return memos.map((m, i) => ({ n: i + 1, topic: memoOf(m)!.topic, summary: memoOf(m)!.summary }));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
