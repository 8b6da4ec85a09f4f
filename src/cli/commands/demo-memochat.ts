/**
 * What `memlane demo --strategy memochat` prints beyond the common tour: each memo entry a session
 * wrote (topic, summary, line range), and for each question the topics recall chose — or that it
 * chose none of the others.
 */
import type { Recall } from "../../core/recall.js";
import type { Memory } from "../../core/types.js";
import { MEMOCHAT, memoOf } from "../../strategies/memochat/memochat.js";
import { color, shown } from "../output.js";

export interface DemoPrinter {
  /** Lines for the memo entries a session added. */
  added(memories: Memory[]): string[];
  /** One line on what recall chose. */
  choice(recall: Recall): string;
}

/** The memochat printer when the demo runs memochat; null for every other strategy. */
export function memochatDemo(strategy: string): DemoPrinter | null {
  if (strategy !== MEMOCHAT) return null;
  return {
    added: (memories) =>
      memories
        .filter((m) => memoOf(m))
        .sort((a, b) => memoOf(a)!.turnIndex - memoOf(b)!.turnIndex)
        .map((m) => {
          const memo = memoOf(m)!;
          return `${color.green(`  + memo “${shown(memo.topic)}”`)} ${color.dim(`lines ${memo.lineStart}–${memo.lineEnd}`)}: ${shown(memo.summary)}`;
        }),
    choice(recall) {
      const chosen = recall.hits.map((h) => memoOf(h.memory)).filter((m) => m !== null);
      if (chosen.length === 0) return color.dim("     ↳ chose: none of the others");
      return color.dim(
        `     ↳ chose: ${chosen.map((m) => `“${shown(m!.topic)}” (lines ${m!.lineStart}–${m!.lineEnd})`).join(", ")}`,
      );
    },
  };
}
