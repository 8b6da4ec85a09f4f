/**
 * The times a question asks about ("in May 2023", "on October 13, 2023", "last year", "the week
 * before August 3, 2023"), as ranges. Absolute dates are read as written; relative phrases are
 * resolved against `anchor` (the conversation's present), or against the date they hang on
 * ("last weekend before April 10, 2023" is the weekend before 10 April). Used by recall to
 * favour what was said at the asked time.
 */
import {
  dayRange,
  findRelativeTimes,
  monthIndex,
  monthRange,
  resolveRelativeTime,
  type TimeRange,
} from "./time.js";

const MONTH =
  "(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "((?:19|20)\\d{2})";
const DAY_MONTH_YEAR = new RegExp(`\\b${DAY} (?:of )?${MONTH},? ${YEAR}\\b`, "gi");
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH} ${DAY},? ${YEAR}\\b`, "gi");
const MONTH_YEAR = new RegExp(`\\b${MONTH},? (?:of )?${YEAR}\\b`, "gi");
const BARE_YEAR = new RegExp(`\\b${YEAR}\\b`, "g");
/** "last weekend before", "the week before", "two weeks before", "a day after" … */
const HANGING =
  /\b(?:(last|next) (\w+)|the (day|week|weekend|month)|(\w+) (days?|weeks?|months?)) (before|after|prior to) $/i;

export function findMentionedTimes(text: string, anchor: string): TimeRange[] {
  const found: TimeRange[] = [];
  let rest = text;
  /** Reads every match of `pattern` in what is left, then blanks what it read. */
  const take = (pattern: RegExp, read: (m: RegExpExecArray) => TimeRange | null) => {
    const spans: [number, number][] = [];
    for (const m of rest.matchAll(pattern)) {
      let start = m.index;
      let range = read(m);
      if (!range) continue;
      // "… before <date>" hangs on a day or a month; a bare year ("in 2023") anchors nothing.
      const hanging = HANGING.exec(rest.slice(0, start));
      const anchored = hanging && !/^\d{4}$/.test(range.label);
      const relative = anchored ? resolveHanging(hanging, range.start) : null;
      if (relative) {
        start -= hanging![0].length;
        range = { ...relative, phrase: `${hanging![0]}${m[0]}` };
      }
      found.push(range);
      spans.push([start, m.index + m[0].length]);
    }
    for (const [a, b] of spans) rest = rest.slice(0, a) + " ".repeat(b - a) + rest.slice(b);
  };
  const day = (d: string, m: string, y: string, phrase: string) => {
    const month = monthIndex(m.replace(".", ""));
    const n = Number(d);
    return month < 0 || n < 1 || n > 31 ? null : dayRange(Date.UTC(Number(y), month, n), phrase);
  };
  take(DAY_MONTH_YEAR, (m) => day(m[1]!, m[2]!, m[3]!, m[0]));
  take(MONTH_DAY_YEAR, (m) => day(m[2]!, m[1]!, m[3]!, m[0]));
  take(MONTH_YEAR, (m) => {
    const month = monthIndex(m[1]!.replace(".", ""));
    return month < 0 ? null : monthRange(Number(m[2]), month, m[0]);
  });
  // Relative phrases before bare years, so "three years ago" and "in 2023" are each read once.
  found.push(...findRelativeTimes(rest, anchor));
  take(BARE_YEAR, (m) => {
    const year = Number(m[1]);
    return {
      start: new Date(Date.UTC(year, 0, 1)).toISOString(),
      end: new Date(Date.UTC(year + 1, 0, 1)).toISOString(),
      label: m[1]!,
      phrase: m[0],
    };
  });
  return found;
}

function resolveHanging(m: RegExpExecArray, date: string): TimeRange | null {
  const [, lastNext, unit, theUnit, count, countUnit, direction] = m as unknown as string[];
  const before = direction!.toLowerCase() !== "after";
  if (lastNext && unit) return resolveRelativeTime(`${before ? "last" : "next"} ${unit}`, date);
  if (theUnit) {
    if (theUnit.toLowerCase() === "day")
      return dayRange(Date.parse(date) + (before ? -1 : 1) * 86_400_000, m[0]);
    return resolveRelativeTime(`${before ? "last" : "next"} ${theUnit}`, date);
  }
  if (count && countUnit && before) return resolveRelativeTime(`${count} ${countUnit} ago`, date);
  return null;
}
