/**
 * The offline reply. With no language model we do not pretend to chat: we answer from memory,
 * honestly — what the partner told us and when — or say that nothing is remembered.
 */
import { displayName } from "../../core/ids.js";
import { currencyOf, pastInWords, timelineLines } from "../../core/past-marks.js";
import type { RecallHit } from "../../core/recall.js";
import { termOverlap } from "../../core/text.js";
import { formatDay } from "../../core/time.js";
import type { ReplyInput } from "../inputs.js";
import { toSecondPerson } from "./perspective.js";

/** Least score a hit needs to be mentioned; fused scores are relative, so we also cap the count. */
const MAX_MENTIONS = 3;

export function replyOffline(input: ReplyInput): string {
  const partner = input.partner;
  const last = [...input.dialogue].reverse().find((t) => t.speaker === partner);
  // With timelines (Theanine), tell the top memory and how it developed, in order.
  const top = input.recall.hits[0];
  const timeline = top && input.recall.timelines?.find((t) => t.through === top.id && t.entries.length > 1);
  if (top && timeline) {
    const told = timelineLines(timeline);
    return `${mention(top, partner, input.agent)}\nHow it developed, as I remember it:\n${told.map((l) => `- ${l}`).join("\n")}`;
  }
  const lines = pickLines(input.recall.hits, last?.text ?? input.recall.query, (hit) =>
    mention(hit, partner, input.agent),
  );
  if (lines.length === 0) {
    if (last && !last.text.trim().endsWith("?")) return "Thanks for telling me — I'll keep that in mind.";
    return "I don't have anything about that in my memory yet.";
  }
  return lines.length === 1
    ? lines[0]!
    : `Here is what I remember:\n${lines.map((l) => `- ${l}`).join("\n")}`;
}

/**
 * The lines to say, best hit first: one per distinct line, so two memories drawn from the same
 * sentence (quoted the same way) are told once, and the next memory takes the freed place.
 */
function pickLines(hits: RecallHit[], query: string, line: (hit: RecallHit) => string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const hit of hits) {
    const key = hit.text.toLowerCase();
    if (seen.has(key)) continue;
    // A hit that shares nothing with the question and ranked low is noise, not memory.
    if (out.length > 0 && termOverlap(hit.text, query) === 0 && hit.score < hits[0]!.score * 0.5) continue;
    seen.add(key);
    const said = line(hit);
    if (out.includes(said)) continue;
    out.push(said);
    if (out.length === MAX_MENTIONS) break;
  }
  return out;
}

/** What a hit says, and for a past memory, in words, that it ended and what holds now. */
function mention(hit: RecallHit, partner: string, agent: string): string {
  const said = mentionOf(hit, partner, agent);
  const currency = currencyOf(hit);
  const past = currency && pastInWords(currency, (t) => toSecondPerson(t, displayName(partner)));
  return past ? `${said} ${past}` : said;
}

function mentionOf(hit: RecallHit, partner: string, agent: string): string {
  const when = formatDay(hit.observedAt);
  const quote = hit.kind === "turn" ? hit.text : (hit.memory?.attributes.quote as string | undefined);
  if (hit.about === partner) {
    if (quote) return `On ${when} you told me: “${quote}”`;
    return `On ${when} I noted that ${lowerFirst(toSecondPerson(hit.text, displayName(partner)))}`;
  }
  if (hit.about === agent) return `On ${when} I said: “${quote ?? hit.text}”`;
  return `On ${when}: ${hit.text}`;
}

function lowerFirst(text: string): string {
  return /^(you|your)\b/i.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
