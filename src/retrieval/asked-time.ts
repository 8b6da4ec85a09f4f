/**
 * Conversation-time awareness: does a unit belong to the time a question asks about? A unit
 * (turn or memory) carries the day it was said and any times its own words mention, resolved
 * against that day ("last week" said on 8 May 2023). It matches an asked range when a mentioned
 * time overlaps it, or when it was said inside the range or within `graceDays` after it — people
 * tell of an event some days after it happened.
 */
import { findMentionedTimes } from "../core/time-mentions.js";

const DAY_MS = 86_400_000;

export interface UnitTime {
  said: number;
  mentioned: [number, number][];
  /** Whether the unit's words place something in time (a date, "last Friday", "for 4 years"). */
  dated: boolean;
}

export interface AskedRange {
  start: number;
  end: number;
  label: string;
}

/**
 * Characters of a text read for its time words: a question's are near its start, and reading a
 * long text whole would let one request hold the event loop (documented in docs/recall.md).
 */
export const TIME_WORDS_READ = 2000;

const head = (text: string) => (text.length > TIME_WORDS_READ ? text.slice(0, TIME_WORDS_READ) : text);

/** The time ranges a question asks about, resolved against the conversation's present. */
export function askedRanges(query: string, now: string): AskedRange[] {
  return findMentionedTimes(head(query), now).map((r) => ({
    start: Date.parse(r.start),
    end: Date.parse(r.end),
    label: r.label,
  }));
}

export function unitTime(full: string, at: string): UnitTime {
  const text = head(full);
  const mentioned = findMentionedTimes(text, at).map((r): [number, number] => [
    Date.parse(r.start),
    Date.parse(r.end),
  ]);
  return { said: Date.parse(at), mentioned, dated: mentioned.length > 0 || TIME_PHRASE.test(text) };
}

const NUMBER = "(?:\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|several)";
const WHEN_UNIT =
  "(?:night|morning|afternoon|evening|week|weekend|month|year|summer|winter|spring|fall|autumn)";
const WEEKDAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
/** Short day names only after a word that makes them days ("last Sat"; "sat" and "sun" alone are words). */
const SHORT_DAY = "(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)";

/**
 * Any phrase that places an event in time, resolvable or not: what findMentionedTimes reads, and
 * also "two weekends ago", "this past weekend", "last summer", "recently", "since 2016", "for four
 * years", a weekday or a month by name. Only its presence is used (the `dated` signal).
 */
const TIME_PHRASE = new RegExp(
  [
    "\\b(?:yesterday|today|tonight|tomorrow|recently|lately|the other day|ago|since)\\b",
    `\\b(?:last|next|this|past|coming|previous|on|every) (?:${WHEN_UNIT}|${WEEKDAY}|${SHORT_DAY})\\b`,
    `\\b${NUMBER} (?:days?|nights?|weeks?|weekends?|months?|years?|decades?)\\b`,
    `\\b${WEEKDAY}s?\\b`,
    "\\b(?:january|february|march|april|june|july|august|september|october|november|december)\\b",
    "\\bmay (?:\\d|of\\b)|\\bin may\\b",
    "\\b(?:19|20)\\d{2}\\b",
  ].join("|"),
  "i",
);

/**
 * Questions whose answer is a time or a span of time ("When did…", "How long ago…", "Which
 * year…"), at the start of a sentence: "What did Sam say when…" asks for words, not a date.
 */
const ASKS_WHEN =
  /(?:^|[.?!]\s+)(?:and |so |but |then )?(?:when\b|since when\b|how long\b|(?:what|which|in what|in which) (?:year|month|day|date|time of year|week|weekend|season)\b|how many (?:years|months|weeks|days)\b)/i;

/**
 * Whether a question asks for a time. Its answer then rests on a unit that dates the event
 * ("I ran a charity race last Saturday"), not on a later one that only names it ("How was the
 * race?"): recall's `dated` signal favours units whose words place something in time.
 */
export function asksWhen(query: string): boolean {
  return ASKS_WHEN.test(head(query).trim());
}

export function withinAsked(unit: UnitTime, asked: AskedRange[], graceDays = 14): boolean {
  for (const r of asked) {
    if (unit.said >= r.start && unit.said < r.end + graceDays * DAY_MS) return true;
    for (const [start, end] of unit.mentioned) if (start < r.end && end > r.start) return true;
  }
  return false;
}

/** Words that ask about the present state of things, where the newest unit should win ties. */
const PRESENT =
  /\b(now|nowadays|currently|current|these days|still|anymore|any more|latest|most recent(?:ly)?|lately|at the moment)\b/i;

export function asksAboutNow(query: string): boolean {
  return PRESENT.test(head(query));
}

const dayOf = (t: string | number) => Math.floor((typeof t === "string" ? Date.parse(t) : t) / DAY_MS);

/**
 * Maps times onto 0 (the oldest day given) to 1 (the newest) by the rank of their day among the
 * distinct days, so one far-off date cannot squeeze everything else together.
 */
export function recencyScale(times: number[]): (t: number) => number {
  const days = new DayScale();
  for (const t of times) days.add(t);
  return (t) => days.scale(t);
}

/**
 * `recencyScale` kept current as times come and go (the live indexes' form of it): counts per
 * day, the ranks read again only when a day is added or its last time leaves.
 */
export class DayScale {
  private readonly counts = new Map<number, number>();
  private rank: Map<number, number> | null = null;

  /** A time (ISO text or milliseconds) joins. */
  add(at: string | number): void {
    const d = dayOf(at);
    const n = this.counts.get(d) ?? 0;
    this.counts.set(d, n + 1);
    if (n === 0) this.rank = null;
  }

  /** A time that joined leaves. */
  remove(at: string | number): void {
    const d = dayOf(at);
    const n = this.counts.get(d) ?? 0;
    if (n <= 1) {
      this.counts.delete(d);
      this.rank = null;
    } else this.counts.set(d, n - 1);
  }

  /** Where a time (milliseconds) falls: 0 on the oldest day held, 1 on the newest. */
  scale(t: number): number {
    this.rank ??= new Map([...this.counts.keys()].sort((a, b) => a - b).map((d, i) => [d, i]));
    const size = this.rank.size;
    return size < 2 ? 1 : (this.rank.get(dayOf(t)) ?? 0) / (size - 1);
  }
}
