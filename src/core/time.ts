/**
 * Conversation time (docs/architecture.md, "Principles"). Every write carries the session's time, and
 * relative phrases ("yesterday", "last month") are resolved against it, never against the clock.
 * Times without a zone are read as UTC so a replay gives the same answer on any machine.
 */
import { InvalidInputError } from "./errors.js";

/** Month names, January first (lower case). */
export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
/** Weekday names, Sunday first (lower case). */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const DAY_MS = 86_400_000;

/** Month index (0-11) of a month name or its three-letter prefix, or -1. */
export function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  return MONTHS.findIndex((m) => m === lower || (lower.length >= 3 && m.startsWith(lower)));
}

/**
 * Reads a conversation time: ISO-8601 ("2023-05-08", "2023-05-08T13:56", with or without zone)
 * or LoCoMo's "1:56 pm on 8 May, 2023". Returns a UTC ISO string; throws InvalidInputError.
 */
export function parseConversationTime(value: string): string {
  const text = value.trim();
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text,
    );
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[2]) - 1, Number(iso[3])];
    const clock = [Number(iso[4] ?? 0), Number(iso[5] ?? 0), Number(iso[6] ?? 0)] as const;
    // 24:00 is the end of a day (ISO 8601); any other hour past 23 is not a time.
    const endOfDay = clock[0] === 24 && clock[1] === 0 && clock[2] === 0;
    if (!realDay(year, month, day) || (clock[0] > 23 && !endOfDay) || clock[1] > 59 || clock[2] > 59)
      throw new InvalidInputError(`"${value}" is not a real date and time`, { value });
    const date = iso[4] === undefined ? `${iso[1]}-${iso[2]}-${iso[3]}T00:00:00` : text.replace(" ", "T");
    const withZone = iso[7] ? date : `${date}Z`;
    const ms = Date.parse(withZone);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  const locomo = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text);
  if (locomo) {
    const month = monthIndex(locomo[5]!);
    const hour12 = Number(locomo[1]);
    if (
      month >= 0 &&
      (!realDay(Number(locomo[6]), month, Number(locomo[4])) || hour12 > 12 || Number(locomo[2]) > 59)
    )
      throw new InvalidInputError(`"${value}" is not a real date and time`, { value });
    if (month >= 0) {
      let hour = Number(locomo[1]) % 12;
      if (locomo[3]!.toLowerCase() === "pm") hour += 12;
      return utcDate(Number(locomo[6]), month, Number(locomo[4]), hour, Number(locomo[2])).toISOString();
    }
  }
  throw new InvalidInputError(`Cannot read "${value}" as a conversation time`, { value });
}

/**
 * A UTC time for any year: `Date.UTC` reads years 0 to 99 as 1900 to 1999, so the year is set on
 * its own (a file dated "0042" means the year 42).
 */
function utcDate(year: number, month: number, day: number, hour = 0, minute = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(hour, minute, 0, 0);
  return date;
}

/** True when the day exists in that month (no 30 February, no 32nd); `month` is 0-11. */
function realDay(year: number, month: number, day: number): boolean {
  if (month < 0 || month > 11 || day < 1) return false;
  return day <= utcDate(year, month + 1, 0).getUTCDate();
}

/** "8 May 2023" */
export function formatDay(iso: string): string {
  const d = new Date(iso);
  const month = MONTHS[d.getUTCMonth()]!;
  return `${d.getUTCDate()} ${month[0]!.toUpperCase()}${month.slice(1)} ${d.getUTCFullYear()}`;
}

/** "May 2023" */
export function formatMonth(iso: string): string {
  const d = new Date(iso);
  const month = MONTHS[d.getUTCMonth()]!;
  return `${month[0]!.toUpperCase()}${month.slice(1)} ${d.getUTCFullYear()}`;
}

export interface TimeRange {
  /** Inclusive start, UTC ISO. */
  start: string;
  /** Exclusive end, UTC ISO. */
  end: string;
  /** Human form of the resolved time ("7 May 2023", "the week before 8 May 2023"). */
  label: string;
  /** The phrase that was resolved, as it stood in the text. */
  phrase: string;
}

const startOfDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
const iso = (ms: number) => new Date(ms).toISOString();

/** The day holding `ms`. */
export function dayRange(ms: number, phrase: string): TimeRange {
  const start = startOfDay(ms);
  return { start: iso(start), end: iso(start + DAY_MS), label: formatDay(iso(start)), phrase };
}

/** A calendar month (month 0-11; out-of-range months roll into the next or previous year). */
export function monthRange(year: number, month: number, phrase: string): TimeRange {
  const start = Date.UTC(year, month, 1);
  return {
    start: iso(start),
    end: iso(Date.UTC(year, month + 1, 1)),
    label: formatMonth(iso(start)),
    phrase,
  };
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  few: 3,
};

const RELATIVE =
  /\b(yesterday|today|tonight|tomorrow|last night|this morning|this afternoon|this evening|(?:last|next|this) (?:week|weekend|month|year|mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a couple of|a few) (?:day|week|month|year)s? (?:ago|earlier)|in (?:january|february|march|april|may|june|july|august|september|october|november|december)(?: (?:of )?\d{4})?)\b/gi;

/** Resolves one relative time phrase against the conversation time `anchor`, or null. */
export function resolveRelativeTime(phrase: string, anchor: string): TimeRange | null {
  const p = phrase.toLowerCase().trim();
  const now = Date.parse(anchor);
  if (Number.isNaN(now)) return null;
  const today = startOfDay(now);
  const d = new Date(now);
  if (
    p === "today" ||
    p === "tonight" ||
    p.startsWith("this morning") ||
    p.startsWith("this a") ||
    p === "this evening"
  )
    return dayRange(today, phrase);
  if (p === "yesterday" || p === "last night") return dayRange(today - DAY_MS, phrase);
  if (p === "tomorrow") return dayRange(today + DAY_MS, phrase);
  const ago = /^(a couple of|a few|\w+) (day|week|month|year)s? (?:ago|earlier)$/.exec(p);
  if (ago) {
    const n = NUMBER_WORDS[ago[1]!.replace(/^a (couple of|few)$/, "$1").replace(" of", "")] ?? Number(ago[1]);
    if (!Number.isFinite(n)) return null;
    const unit = ago[2]!;
    if (unit === "day") return dayRange(today - n * DAY_MS, phrase);
    if (unit === "week") {
      const start = today - n * 7 * DAY_MS;
      return {
        start: iso(start - 3 * DAY_MS),
        end: iso(start + 4 * DAY_MS),
        label: `about ${formatDay(iso(start))}`,
        phrase,
      };
    }
    if (unit === "month") return monthRange(d.getUTCFullYear(), d.getUTCMonth() - n, phrase);
    const year = d.getUTCFullYear() - n;
    return {
      start: iso(Date.UTC(year, 0, 1)),
      end: iso(Date.UTC(year + 1, 0, 1)),
      label: String(year),
      phrase,
    };
  }
  const rel = /^(last|next|this) (\w+)$/.exec(p);
  if (rel) {
    const [, which, unit] = rel as unknown as [string, string, string];
    const sign = which === "last" ? -1 : which === "next" ? 1 : 0;
    if (unit === "week") {
      const start = today + sign * 7 * DAY_MS - d.getUTCDay() * DAY_MS;
      const label =
        sign < 0
          ? `the week before ${formatDay(anchor)}`
          : sign > 0
            ? `the week after ${formatDay(anchor)}`
            : `the week of ${formatDay(anchor)}`;
      return { start: iso(start), end: iso(start + 7 * DAY_MS), label, phrase };
    }
    if (unit === "weekend") {
      const saturday = today + ((6 - d.getUTCDay() + 7) % 7) * DAY_MS + sign * 7 * DAY_MS;
      const start = sign < 0 && d.getUTCDay() === 6 ? today - 7 * DAY_MS : saturday;
      return {
        start: iso(start),
        end: iso(start + 2 * DAY_MS),
        label: `the weekend of ${formatDay(iso(start))}`,
        phrase,
      };
    }
    if (unit === "month") return monthRange(d.getUTCFullYear(), d.getUTCMonth() + sign, phrase);
    if (unit === "year") {
      const year = d.getUTCFullYear() + sign;
      return {
        start: iso(Date.UTC(year, 0, 1)),
        end: iso(Date.UTC(year + 1, 0, 1)),
        label: String(year),
        phrase,
      };
    }
    const weekday = WEEKDAYS.findIndex((w) => w === unit || (unit.length >= 3 && w.startsWith(unit)));
    if (weekday >= 0) {
      let delta = weekday - d.getUTCDay();
      if (sign < 0) delta = delta >= 0 ? delta - 7 : delta;
      if (sign > 0) delta = delta <= 0 ? delta + 7 : delta;
      return dayRange(today + delta * DAY_MS, phrase);
    }
    return null;
  }
  const inMonth = /^in (\w+)(?: (?:of )?(\d{4}))?$/.exec(p);
  if (inMonth) {
    const month = monthIndex(inMonth[1]!);
    if (month < 0) return null;
    if (inMonth[2]) return monthRange(Number(inMonth[2]), month, phrase);
    // Without a year, the nearest such month: "in May" said in March is this May, said in
    // December it is the May before; "in December" said in February is the one just gone.
    const year = d.getUTCFullYear();
    const offset = month - d.getUTCMonth();
    return monthRange(offset > 6 ? year - 1 : offset < -6 ? year + 1 : year, month, phrase);
  }
  return null;
}

/** Every relative time phrase in `text`, resolved against `anchor`. */
export function findRelativeTimes(text: string, anchor: string): TimeRange[] {
  const out: TimeRange[] = [];
  for (const match of text.matchAll(RELATIVE)) {
    const range = resolveRelativeTime(match[0], anchor);
    if (range) out.push(range);
  }
  return out;
}

/**
 * Rewrites relative time phrases into absolute ones ("yesterday" -> "on 7 May 2023") so a
 * statement stays true when read months later.
 */
export function absolutizeTimes(text: string, anchor: string): string {
  return text.replace(RELATIVE, (phrase) => {
    const range = resolveRelativeTime(phrase, anchor);
    if (!range) return phrase;
    const p = phrase.toLowerCase();
    if (/^\d{4}$/.test(range.label)) return `in ${range.label}`;
    if (/^(in |last |next |this )(month|year|week)/.test(p) || p.startsWith("in "))
      return `in ${range.label}`;
    if (p.endsWith("weekend") || p.endsWith("week") || range.label.startsWith("about"))
      return `in ${range.label}`;
    return `on ${range.label}`;
  });
}
