/**
 * Refusing fields memlane does not know. A field that is ignored is worse than one that is
 * refused: a caller used to another memory API who writes `user_id` or `filters` believes the
 * call was narrowed when it was not, and a typo (`qeury`) silently takes a default. Every public
 * input therefore names its unknown fields, and suggests the known one a misspelling was meant to be.
 */
import { InvalidInputError } from "./errors.js";

/**
 * The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost one. Swaps count once because they are the commonest typo
 * ("qeury" is one edit from "query", not two).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++)
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known name `name` was most likely meant to be, or undefined when none is close. Case and
 * the separators of other naming styles are ignored first (`session_id` and `SessionId` are
 * `sessionId`); then at most one edit in four characters is allowed, so `qeury` finds `query` but
 * `db` finds nothing among `store`, `tenant` and the like.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, "");
  const wanted = plain(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(wanted, plain(candidate));
    if (distance === 0) return candidate;
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(wanted.length, best.name.length) / 4));
  return best.distance <= allowed ? best.name : undefined;
}

/**
 * What to say about an unknown field: its name, and the known field it was probably meant to be.
 * `hints` map names callers bring from elsewhere to memlane's own (`db` → `store`, for
 * openMemlane: the CLI's flag is `--db`); a hint wins over a near spelling.
 * @example unknownFieldMessage("qeury", ["query", "k"]) // "unknown field `qeury`; did you mean `query`?"
 */
export function unknownFieldMessage(
  name: string,
  known: readonly string[],
  hints: Readonly<Record<string, string>> = {},
): string {
  const meant = Object.hasOwn(hints, name) ? hints[name] : closestName(name, known);
  if (meant !== undefined) return `unknown field \`${name}\`; did you mean \`${meant}\`?`;
  return known.length
    ? `unknown field \`${name}\` (known: ${known.join(", ")})`
    : `unknown field \`${name}\` (none are taken here)`;
}

/**
 * Refuses an options object holding a field that is not in `known`, naming the first such field.
 * Only own enumerable string keys count; a field set to undefined is still a field the caller
 * wrote, so it is refused too. A value that is not a plain object is left to the caller's checks.
 * @param where the object's path for `details.field` ("replyWindow" gives "replyWindow.turn"); empty at the top
 * @throws {InvalidInputError} `details.field` the unknown field (with `where`), `details.suggestion` the likely meant one
 */
export function refuseUnknownFields(
  value: unknown,
  known: readonly string[],
  what: string,
  options: { where?: string; hints?: Readonly<Record<string, string>> } = {},
): void {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const allowed = new Set(known);
  const unknown = Object.keys(value).filter((key) => !allowed.has(key));
  if (unknown.length === 0) return;
  const name = unknown[0]!;
  const hints = options.hints ?? {};
  const suggestion = Object.hasOwn(hints, name) ? hints[name] : closestName(name, known);
  const field = options.where ? `${options.where}.${name}` : name;
  throw new InvalidInputError(`Invalid ${what}: ${unknownFieldMessage(name, known, hints)}`, {
    field,
    unknown: unknown.map((key) => (options.where ? `${options.where}.${key}` : key)),
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/**
 * The names of an options type, checked by the compiler both ways: a name missing from `fields`
 * or one the type does not have is a type error, so the list cannot drift from the interface.
 * @example const FILTER_FIELDS = fieldsOf<TurnFilter>({ sessionId: true, speaker: true, ids: true });
 */
export function fieldsOf<T extends object>(fields: { [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(fields);
}
