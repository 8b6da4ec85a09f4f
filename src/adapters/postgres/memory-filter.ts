/** SQL for a MemoryFilter in one scope, with numbered parameters. */
import type { MemoryFilter, Scope } from "../../core/types.js";

/** Collects parameter values and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/**
 * The WHERE clause (without the keyword) admitting the scope's memories that pass the filter:
 * active ones only unless `status` says otherwise. `alias` prefixes the columns ("m.").
 */
export function memoryWhere(p: Params, scope: Scope, filter: MemoryFilter = {}, alias = ""): string {
  const where = [`${alias}tenant = ${p.add(scope.tenant)}`, `${alias}agent = ${p.add(scope.agent)}`];
  const inList = (column: string, values: string[] | undefined) => {
    if (values) where.push(`${alias}${column} = ANY(${p.add(values)}::text[])`);
  };
  inList("status", filter.status === "any" ? undefined : (asList(filter.status) ?? ["active"]));
  inList("about", asList(filter.about));
  inList("kind", asList(filter.kind));
  if (filter.strategy) where.push(`${alias}strategy = ${p.add(filter.strategy)}`);
  if (filter.sessionId) where.push(`${alias}session_id = ${p.add(filter.sessionId)}`);
  inList("id", filter.ids);
  return where.join(" AND ");
}
