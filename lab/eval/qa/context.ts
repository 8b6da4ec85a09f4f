/**
 * What each condition of the QA lab hands the answer model: a strategy's recall as dated lines
 * (with timelines and the conversation's setting where the strategy gives them), the whole
 * conversation for the full-context baseline, or nothing. The full conversation is cut to the
 * model's window from the oldest end: the newest turns are kept, whole, and the row says that it
 * was cut and how much was kept.
 */
import { displayName } from "../../../src/core/ids.js";
import { hitLine, timelineBlock } from "../../../src/core/past-marks.js";
import type { Recall } from "../../../src/core/recall.js";
import { formatDay } from "../../../src/core/time.js";
import type { Transcript } from "../../../src/engine/ingest/formats/transcript.js";
import { estimateTokens } from "../../../src/models/chat-model.js";

/**
 * A strategy's recall as the answer model reads it, hits in the order recall ranked them, each
 * memory marked current or past (with when it ended and what replaced it), as the reply sees them.
 */
export function recallContext(recall: Recall): string {
  const lines = recall.hits.map(hitLine);
  const timelines = (recall.timelines ?? []).map((t, i) => timelineBlock(t, i + 1));
  return [...(recall.setting ?? []), ...lines, ...timelines].join("\n");
}

/** The source turns a recall's hits stand on (a turn stands on itself). */
export function recalledTurns(recall: Recall): Set<string> {
  const ids = new Set<string>();
  for (const hit of recall.hits) {
    if (hit.kind === "turn") ids.add(hit.id);
    for (const id of hit.sourceTurns) ids.add(id);
  }
  return ids;
}

/** The full-context baseline's text, and what of the conversation it shows. */
export interface FullContext {
  text: string;
  /** Turn ids shown. */
  shown: Set<string>;
  /** Turns left out, oldest first, to fit the window (0: the whole conversation fits). */
  cut: number;
  total: number;
}

/**
 * The whole conversation, session by session and dated, oldest first, in at most `budget` tokens
 * (estimated at four characters a token): when it does not fit, the oldest turns are left out.
 */
export function fullContext(transcript: Transcript, budget: number): FullContext {
  const blocks: { id: string; line: string; header: string; continued: string; first: boolean }[] = [];
  for (const [n, s] of transcript.sessions.entries())
    for (const [i, t] of s.turns.entries())
      blocks.push({
        id: t.id,
        line: `${displayName(t.speaker)}: ${t.text}`,
        header: `Session ${n + 1} (${formatDay(s.at)}):`,
        continued: `Session ${n + 1} (${formatDay(s.at)}), continued:`,
        first: i === 0,
      });
  // Take turns from the newest back while they fit, each session under its dated header; a
  // session cut in the middle keeps its header, so its turns keep their date.
  const cost = (text: string) => estimateTokens(text) + 1;
  const kept: string[] = [];
  const shown = new Set<string>();
  let used = 0;
  let at = blocks.length - 1;
  for (; at >= 0; at--) {
    const b = blocks[at]!;
    if (used + cost(b.line) + cost(b.continued) > budget) break;
    used += cost(b.line);
    kept.push(b.line);
    shown.add(b.id);
    if (b.first) {
      used += cost(b.header);
      kept.push(b.header);
    }
  }
  const cut = at + 1;
  if (cut > 0) {
    // The oldest session shown began before the cut: its header still goes on top.
    if (kept.length && !blocks[cut]!.first) kept.push(blocks[cut]!.continued);
    kept.push(
      `(The ${cut} oldest turns are left out: the whole conversation does not fit the model's window.)`,
    );
  }
  return { text: kept.reverse().join("\n"), shown, cut, total: blocks.length };
}
