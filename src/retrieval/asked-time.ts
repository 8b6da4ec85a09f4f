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
}

export interface AskedRange {
  start: number;
  end: number;
  label: string;
}

/** The time ranges a question asks about, resolved against the conversation's present. */
export function askedRanges(query: string, now: string): AskedRange[] {
  return findMentionedTimes(query, now).map((r) => ({
    start: Date.parse(r.start),
    end: Date.parse(r.end),
    label: r.label,
  }));
}

export function unitTime(text: string, at: string): UnitTime {
  return {
    said: Date.parse(at),
    mentioned: findMentionedTimes(text, at).map((r) => [Date.parse(r.start), Date.parse(r.end)]),
  };
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
  return PRESENT.test(query);
}

/**
 * Maps times onto 0 (the oldest day given) to 1 (the newest) by the rank of their day among the
 * distinct days, so one far-off date cannot squeeze everything else together.
 */
export function recencyScale(times: number[]): (t: number) => number {
  const day = (t: number) => Math.floor(t / DAY_MS);
  const days = [...new Set(times.map(day))].sort((a, b) => a - b);
  const rank = new Map(days.map((d, i) => [d, i]));
  return (t) => (days.length < 2 ? 1 : (rank.get(day(t)) ?? 0) / (days.length - 1));
}
