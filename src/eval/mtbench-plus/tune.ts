/**
 * Choosing memochat's offline knobs on the tuning half only: the segmentation cut (each value a
 * full replay, since it changes the memo) and, on the memo each cut wrote, the chooser's
 * none-of-the-others threshold and relative gate (swept on recorded scores: the choice changes no
 * memo — offline, the replies it shapes feed neither the segmentation nor the summaries). The
 * objective is exact option F1, ties broken by turn recall.
 */
import { memochatStrategy, memoOf } from "../../strategies/memochat/memochat.js";
import { CHOOSER_DEFAULTS, chooseByScore, scoreOptions } from "../../strategies/memochat/offline-chooser.js";
import type { TopicOption } from "../../strategies/memochat/steps/choose-topics.js";
import type { MtbenchConversation } from "./dataset.js";
import { type MtbenchPorts, type MtbenchProgress, playConversation, scoreRecall } from "./evaluate.js";

export interface TuneGrid {
  cuts: number[];
  thresholds: number[];
  gates: number[];
}

export const DEFAULT_GRID: TuneGrid = {
  cuts: [0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5],
  thresholds: Array.from({ length: 13 }, (_, i) => Number((0.05 + 0.05 * i).toFixed(2))),
  gates: [0, 0.5, 0.6, 0.7, 0.8, 0.9],
};

export interface TunePoint {
  cut: number;
  threshold: number;
  gate: number;
  optionF1: number;
  turnRecall: number;
  turnPrecision: number;
  /** Memo entries per conversation at this cut. */
  entries: number;
}

export interface TuneReport {
  conversations: string[];
  /** The best point of each cut. */
  byCut: TunePoint[];
  best: TunePoint;
}

export async function tuneMemochat(
  conversations: MtbenchConversation[],
  ports: MtbenchPorts,
  grid: TuneGrid = DEFAULT_GRID,
  onProgress?: (p: MtbenchProgress) => void,
): Promise<TuneReport> {
  const total = grid.cuts.length * conversations.length;
  let done = 0;
  const byCut: TunePoint[] = [];
  for (const cut of grid.cuts) {
    const strategy = memochatStrategy({ cut });
    const played = [];
    for (const conv of conversations) {
      onProgress?.({ done: done++, total, label: `cut ${cut}: ${conv.id}` });
      const p = await playConversation(conv, strategy, ports);
      const memos = p.memories.filter((m) => memoOf(m));
      const options: TopicOption[] = memos.map((m, i) => ({
        n: i + 1,
        topic: memoOf(m)!.topic,
        summary: memoOf(m)!.summary,
      }));
      played.push({
        memos,
        gold: p.gold,
        scores: await scoreOptions(conv.final.text, options, ports.embedder),
      });
    }
    let best: TunePoint | null = null;
    for (const threshold of grid.thresholds)
      for (const gate of grid.gates) {
        const scored = played.map((p) => {
          const hits = chooseByScore(p.scores, { threshold, gate, max: CHOOSER_DEFAULTS.max }).map(
            (n) => p.memos[n - 1]!,
          );
          return scoreRecall(hits, p.gold, p.memos);
        });
        const point: TunePoint = {
          cut,
          threshold,
          gate,
          optionF1: mean(scored.map((s) => s.optionF1)),
          turnRecall: mean(scored.map((s) => s.turnRecall)),
          turnPrecision: mean(scored.map((s) => s.turnPrecision)),
          entries: mean(played.map((p) => p.memos.length)),
        };
        if (
          !best ||
          point.optionF1 > best.optionF1 + 1e-9 ||
          (Math.abs(point.optionF1 - best.optionF1) <= 1e-9 && point.turnRecall > best.turnRecall)
        )
          best = point;
      }
    byCut.push(best!);
  }
  onProgress?.({ done, total, label: "done" });
  const best = [...byCut].sort((a, b) => b.optionF1 - a.optionF1 || b.turnRecall - a.turnRecall)[0]!;
  return { conversations: conversations.map((c) => c.id), byCut, best };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
