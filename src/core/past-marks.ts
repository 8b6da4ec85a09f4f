/**
 * How a recalled memory reads to a model: whether it holds now and, for a past one, when it
 * stopped being true and what replaced it. Reply prompts, the lab's answer contexts, Theanine's
 * timelines and the offline reply all read the past from here, so a "still …?" question never
 * meets an old state shown as if it held.
 */
import { displayName } from "./ids.js";
import type { RecallHit, RecallTimeline, TimelineEntry, VersionStatus } from "./recall.js";
import { formatDay } from "./time.js";

/** What is known of a hit's currency. */
export interface Currency {
  status: VersionStatus;
  /** Conversation time from which a past memory no longer held, when known. */
  until?: string;
  /** The texts of the versions that directly replaced a past memory, oldest first. */
  replacedBy: string[];
  /**
   * How a past memory with no successor ended: `retired` (closed with nothing after it) or
   * `deleted` (forgotten on request); absent when it was replaced or when nothing is known.
   */
  ended?: "retired" | "deleted";
}

/** A hit's currency; undefined for turns and hits that carry no status. */
export function currencyOf(hit: RecallHit): Currency | undefined {
  if (!hit.status) return undefined;
  if (hit.status === "current") return { status: "current", replacedBy: [] };
  const version = hit.chain?.find((v) => v.id === hit.id);
  const until = version?.invalidAt ?? hit.memory?.invalidAt ?? undefined;
  const successors = version?.replacedBy ?? [];
  const replacedBy = successors.flatMap((id) => {
    const next = hit.chain?.find((v) => v.id === id);
    return next ? [next.text] : [];
  });
  const ended =
    hit.memory?.status === "forgotten"
      ? "deleted"
      : replacedBy.length === 0 && version !== undefined
        ? "retired"
        : undefined;
  return {
    status: "past",
    ...(until ? { until } : {}),
    replacedBy,
    ...(ended ? { ended } : {}),
  };
}

/** "[current]", or "[past: held until 3 Mar 2024; replaced by: “…”]" / "…; retired]". */
export function currencyMark(currency: Currency): string {
  if (currency.status === "current") return "[current]";
  const parts = [currency.until ? `past: held until ${formatDay(currency.until)}` : "past: no longer holds"];
  if (currency.replacedBy.length)
    parts.push(`replaced by: ${currency.replacedBy.map((t) => `“${t}”`).join(" and ")}`);
  else if (currency.ended) parts.push(currency.ended);
  return `[${parts.join("; ")}]`;
}

/** A hit as one line of a model's context: date, currency (memories), speaker (turns), text. */
export function hitLine(hit: RecallHit): string {
  const who = hit.kind === "turn" ? `${displayName(hit.about)} said: ` : "";
  const currency = currencyOf(hit);
  const mark = currency ? `${currencyMark(currency)} ` : "";
  return `- (${formatDay(hit.observedAt)}) ${mark}${who}${hit.text}`;
}

/** A timeline entry as a model reads it: date, the relation that led to it, currency, text. */
export function timelineEntryLine(entry: TimelineEntry, first: boolean): string {
  const relation = !first && entry.relation ? ` (${entry.relation})` : "";
  const mark = entry.status
    ? ` ${currencyMark({
        status: entry.status,
        ...(entry.invalidAt ? { until: entry.invalidAt } : {}),
        replacedBy: [],
      })}`
    : "";
  return `${formatDay(entry.at)}${relation}${mark}: ${entry.text}`;
}

/** A timeline's lines: its refinement when it has one, else each entry marked. */
export function timelineLines(timeline: RecallTimeline): string[] {
  return timeline.refined ?? timeline.entries.map((e, i) => timelineEntryLine(e, i === 0));
}

/** "Timeline n:" and its lines, indented, as the reply and the lab's answer model read it. */
export function timelineBlock(timeline: RecallTimeline, n: number): string {
  return `Timeline ${n}:\n${timelineLines(timeline)
    .map((l) => `  - ${l}`)
    .join("\n")}`;
}

/**
 * The words a person reads about the past (the offline reply): "As far as I remember, that held
 * until 12 March 2024; now: Sam's cold is over." The words of remembering keep the sentence out of
 * the facts the agent's own reply is later summarized into. `tell` words each replacement for the
 * listener. Undefined for what holds now.
 */
export function pastInWords(
  currency: Currency,
  tell: (text: string) => string = (t) => t,
): string | undefined {
  if (currency.status === "current") return undefined;
  const until = currency.until
    ? `As far as I remember, that held until ${formatDay(currency.until)}`
    : "As far as I remember, that no longer holds";
  if (currency.replacedBy.length) return `${until}; now: ${currency.replacedBy.map(tell).join(" ")}`;
  if (currency.ended === "deleted") return `${until}, and it was deleted since.`;
  return currency.until ? `${until} and is over now.` : `${until}.`;
}
