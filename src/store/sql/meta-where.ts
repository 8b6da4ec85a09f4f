/**
 * A meta filter (core/meta-filter.ts) as SQL, for every SQL store and every table with a JSON
 * column of the caller's data: one condition per field, its value's text among the wanted ones.
 */
import { InvalidInputError } from "../../core/errors.js";
import { META_KEY, metaValues } from "../../core/meta-filter.js";
import type { MetaFilter } from "../../core/types.js";
import type { SqlDialect } from "./program.js";

/**
 * Conditions (to join with AND) and their parameters that admit rows whose JSON `column` holds,
 * under `prefix` (["meta"] for a memory's attributes, [] for a meta column), the filter's values.
 * @throws {InvalidInputError} a field name that is not a plain word
 */
export function metaWhere(
  d: SqlDialect,
  column: string,
  prefix: readonly string[],
  filter: MetaFilter,
): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [key, wanted] of Object.entries(filter)) {
    if (!META_KEY.test(key))
      throw new InvalidInputError(
        `A meta filter names fields in plain words (letters, digits, _ : -); not "${key}"`,
        {
          field: `meta.${key}`,
        },
      );
    const text = d.jsonScalarText(column, [...prefix, key]);
    where.push(d.inList(text.sql));
    params.push(...text.params, d.list(metaValues(wanted)));
  }
  return { where, params };
}
