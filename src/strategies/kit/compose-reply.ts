/** The memory-grounded reply prompt shared by strategies (our own wording). */
import type { Prompt } from "../../cognition/inputs.js";
import { displayName } from "../../core/ids.js";
import { hitLine, timelineBlock } from "../../core/past-marks.js";
import type { Recall } from "../../core/recall.js";
import { formatDay } from "../../core/time.js";
import type { Turn } from "../../core/types.js";
import type { ReplyContext } from "../strategy.js";

/** Characters of memory context we show the reply model at most. */
const CONTEXT_BUDGET = 12_000;

/**
 * The reply prompt over a recall's hits, as many as the budget holds, in the order given; with
 * `oldestFirst`, the hits come newest first, the budget keeps the newest, and they are shown
 * oldest first (a transcript read in order).
 */
export function composeReply(
  ctx: ReplyContext,
  recall: Recall,
  heading = "What you remember",
  options: { oldestFirst?: boolean } = {},
): Prompt {
  const agent = displayName(ctx.scope.agent);
  const partner = displayName(ctx.partner);
  const lines: string[] = [];
  let used = 0;
  for (const hit of recall.hits) {
    const line = hitLine(hit);
    if (used + line.length > CONTEXT_BUDGET) break;
    lines.push(line);
    used += line.length;
  }
  if (options.oldestFirst) lines.reverse();
  const timelines = (recall.timelines ?? []).map((t, i) => timelineBlock(t, i + 1));
  const system = [
    `You are ${agent}, talking with ${partner} on ${formatDay(ctx.session.at)}.`,
    ...(recall.setting ?? []),
    "Reply naturally and briefly. Use what you remember when it helps, prefer the most recent",
    "information when two memories disagree, and never invent memories you do not have.",
    "A memory marked [past] no longer holds: treat it as history, and go by what replaced it.",
    lines.length
      ? `\n${heading}:\n${lines.join("\n")}`
      : timelines.length
        ? ""
        : "\nYou remember nothing relevant from earlier sessions.",
    ...(timelines.length ? ["\nHow these events developed, oldest first:", ...timelines] : []),
  ].join("\n");
  return { system, messages: dialogueMessages(ctx, ctx.dialogue) };
}

/**
 * Turns as chat messages: the agent's as the assistant's, everyone else's as the user's, a third
 * person's prefixed with their name.
 */
export function dialogueMessages(ctx: ReplyContext, turns: Turn[]): Prompt["messages"] {
  return turns.map((t) => ({
    role: t.speaker === ctx.scope.agent ? ("assistant" as const) : ("user" as const),
    content:
      t.speaker === ctx.scope.agent || t.speaker === ctx.partner
        ? t.text
        : `${displayName(t.speaker)}: ${t.text}`,
  }));
}
