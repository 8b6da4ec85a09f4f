/**
 * MemoChat's recent-dialogue buffer, read from the store rather than kept in memory: the lines of
 * a session after the last one written down — covered by a memo entry, or named by a write's
 * coverage record (which outlives a `forget` of the entries, so forgotten entries are not
 * written again from their lines). A memo write that failed covers nothing, so its lines simply
 * stay here until a later turn (or `retry`) writes them down; a restart loses nothing.
 */
import type { Memory, Turn } from "../../core/types.js";

/** When the buffer is written down (the paper's code: more than 1,024 words, or 10 lines). */
export interface BufferLimits {
  lines: number;
  words: number;
}

export const PAPER_LIMITS: BufferLimits = { lines: 10, words: 1024 };

export interface Buffer {
  /** The session's turns after the last one a memo covers, oldest first. */
  pending: Turn[];
}

/**
 * The buffer of a session: `turns` in order, `memos` the session's memo entries, `written` the
 * turn ids its memo writes recorded as written down.
 */
export function bufferOf(turns: Turn[], memos: Memory[], written: Iterable<string> = []): Buffer {
  const covered = new Set([...memos.flatMap((m) => m.sourceTurns), ...written]);
  let last = -1;
  for (const [i, t] of turns.entries()) if (covered.has(t.id)) last = i;
  return { pending: turns.slice(last + 1) };
}

const words = (turns: Turn[]) => turns.reduce((n, t) => n + t.text.split(/\s+/).filter(Boolean).length, 0);

/** True when `lines` are due to be written down. */
export function isDue(lines: Turn[], limits: BufferLimits): boolean {
  return lines.length >= limits.lines || words(lines) > limits.words;
}
