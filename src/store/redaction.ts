/**
 * What `forget` looks for after erasing rows, shared by every store: the erased texts worth
 * finding elsewhere, and their replacement in any stored value. The thresholds keep everyone's
 * small talk out of it; the README lists them.
 */

export const REDACTED = "[forgotten]";

/** Shortest erased memory text looked for elsewhere. */
const MIN_TEXT = 16;
/**
 * Shortest piece of someone's erased words (a turn, or a sentence of it) looked for elsewhere, in
 * characters and words: short stock phrases ("how are you doing today?") are everyone's.
 */
const MIN_FRAGMENT = 40;
const MIN_FRAGMENT_WORDS = 7;

/** Words that are names only sometimes: a person called "May" must not take every date with them. */
const CALENDAR =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i;

/** True when a name is also a month or a weekday, so it is never matched in memory texts. */
export function isCalendarWord(name: string): boolean {
  return CALENDAR.test(name);
}

/**
 * The texts to redact elsewhere, from the erased memories' texts and the erased turns' words:
 * whole texts and sentences long enough to be recognised when quoted, longest first (a whole text
 * is replaced before its own sentences are looked for).
 */
export function erasedTexts(memoryTexts: string[], turnTexts: string[]): string[] {
  const memories = memoryTexts.filter((t) => t.length >= MIN_TEXT);
  const pieces = [
    ...turnTexts,
    ...turnTexts.flatMap((t) => t.split(/(?<=[.!?])\s+|\n+/).map((x) => x.trim())),
  ].filter((t) => t.length >= MIN_FRAGMENT && t.split(/\s+/).length >= MIN_FRAGMENT_WORDS);
  return [...new Set([...memories, ...pieces])].sort((a, b) => b.length - a.length);
}

/** Replaces every erased text in a value (strings inside objects and arrays too). */
export function scrub(value: unknown, texts: string[]): { value: unknown; changed: boolean } {
  if (typeof value === "string") {
    let out = value;
    for (const t of texts) if (out.includes(t)) out = out.split(t).join(REDACTED);
    return { value: out, changed: out !== value };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = scrub(v, texts);
      changed ||= r.changed;
      return r.value;
    });
    return { value: out, changed };
  }
  if (value && typeof value === "object") {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = scrub(v, texts);
      changed ||= r.changed;
      out[k] = r.value;
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}
