/** Numbered parameters for Postgres statements, and the SQL core's memory filter in them. */
import type { MemoryFilter, Scope } from "../../core/types.js";
import { memoryWhere as sharedMemoryWhere } from "../../store/sql/memory-filter.js";
import { postgresDialect } from "./dialect.js";

/** Collects parameter values and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The WHERE clause (without the keyword) of store/sql/memory-filter.ts, its `?` placeholders
 * numbered after the parameters `p` holds. `alias` prefixes the columns ("m.").
 */
export function memoryWhere(p: Params, scope: Scope, filter: MemoryFilter = {}, alias = ""): string {
  const { sql, params } = sharedMemoryWhere(postgresDialect, scope, filter, alias);
  let i = 0;
  return sql.replace(/\?/g, () => p.add(params[i++]));
}
