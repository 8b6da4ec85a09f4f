/**
 * The part of a session a reply sees. A reply reads the newest turns only, up to a number of
 * turns and of characters (`replyWindow`), so a reply late in a session of thousands of turns
 * costs what one early in it does, and its prompt fits a model's window. What fell out of the
 * window is still reachable: the strategy's recall searches the whole history.
 */
import { z } from "zod";
import { prefixAtWord } from "../../core/text.js";
import type { Turn } from "../../core/types.js";
import { parseInput } from "../api.js";

/** How much of the session a reply sees: at most `turns` newest turns holding at most `chars` characters. */
export interface ReplyWindow {
  turns: number;
  chars: number;
}

/**
 * 40 turns (about 20 exchanges: longer than the sessions of every paper we implement) within
 * 24,000 characters (about 6K tokens, which leaves room for memories in an 8K-token model).
 */
export const DEFAULT_REPLY_WINDOW: ReplyWindow = { turns: 40, chars: 24_000 };

const replyWindowSchema = z.object({
  turns: z.number().int().min(1).optional(),
  chars: z.number().int().min(200).optional(),
});

/**
 * Share of a chat model's window the dialogue may take when `chars` is not given: the rest is for
 * the instructions, the memories and the answer.
 */
const DIALOGUE_SHARE = 0.35;

/**
 * The engine's window from a user's partial one, checked; defaults fill what is not given. With
 * the chat model's `contextWindow` (tokens), the default `chars` shrinks to a share of it, so a
 * small local model's reply prompt is not cut by its server.
 */
export function parseReplyWindow(
  value: Partial<ReplyWindow> | undefined,
  contextWindow?: number,
): ReplyWindow {
  const chars =
    contextWindow === undefined
      ? DEFAULT_REPLY_WINDOW.chars
      : Math.max(200, Math.min(DEFAULT_REPLY_WINDOW.chars, Math.floor(contextWindow * DIALOGUE_SHARE * 4)));
  return { ...DEFAULT_REPLY_WINDOW, chars, ...parseInput(replyWindowSchema, value ?? {}, "replyWindow") };
}

/** Marks the cut of a newest turn longer than the window. */
const CUT_MARK = " […]";

/**
 * The newest turns of `dialogue` that fit `window`, oldest first. The newest turn is always in
 * it; when it alone is longer than the window it is cut to its beginning, at a word, and marked.
 * Reads only the turns it keeps, so its cost does not grow with the session.
 */
export function replyWindowOf(dialogue: readonly Turn[], window: ReplyWindow): Turn[] {
  const kept: Turn[] = [];
  let used = 0;
  for (let i = dialogue.length - 1; i >= 0 && kept.length < window.turns; i--) {
    const turn = dialogue[i]!;
    if (kept.length === 0 && turn.text.length > window.chars) {
      kept.push({ ...turn, text: prefixAtWord(turn.text, window.chars - CUT_MARK.length) + CUT_MARK });
      break;
    }
    if (used + turn.text.length > window.chars) break;
    kept.push(turn);
    used += turn.text.length;
  }
  return kept.reverse();
}
