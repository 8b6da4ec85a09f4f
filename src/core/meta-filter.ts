/**
 * A meta filter (core/types.ts `MetaFilter`) as a test on one row's meta, with the stores' meaning:
 * every field given must hold one of its values, values compared as text (42 is "42", true is
 * "true"), and only scalar values match. The SQL stores say the same (store/sql/meta-where.ts).
 */
import type { MetaFilter, MetaScalar } from "./types.js";

/** A meta field name a filter may use: plain words, so it can name a JSON path in any store. */
export const META_KEY = /^[A-Za-z0-9_][A-Za-z0-9_:-]{0,63}$/;

/** The values one field of the filter admits, as text. */
export function metaValues(wanted: MetaScalar | { in: MetaScalar[] }): string[] {
  return typeof wanted === "object" ? wanted.in.map(String) : [String(wanted)];
}

/** A stored meta value as the text a filter compares, or null when it is no scalar. */
export function metaText(value: unknown): string | null {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : null;
}

/** The test of `filter` on a meta record (a row's `meta`, or a memory's `attributes.meta`). */
export function metaTest(filter: MetaFilter): (meta: unknown) => boolean {
  const fields = Object.entries(filter).map(([key, wanted]) => [key, new Set(metaValues(wanted))] as const);
  return (meta) => {
    if (fields.length === 0) return true;
    if (typeof meta !== "object" || meta === null) return false;
    const record = meta as Record<string, unknown>;
    return fields.every(([key, values]) => {
      const text = Object.hasOwn(record, key) ? metaText(record[key]) : null;
      return text !== null && values.has(text);
    });
  };
}
