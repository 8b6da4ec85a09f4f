/**
 * A MemoryFilter as SQL, written once for every SQL store: the WHERE clause (without the keyword)
 * that admits the scope's memories passing the filter — active ones only unless `status` says
 * otherwise — with `?` placeholders and its parameters in order.
 */
import type { MemoryFilter, Scope } from "../../core/types.js";
import { metaWhere } from "./meta-where.js";
import type { SqlDialect } from "./program.js";

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** `alias` prefixes the columns ("m."). */
export function memoryWhere(
  d: SqlDialect,
  scope: Scope,
  filter: MemoryFilter = {},
  alias = "",
): { sql: string; params: unknown[] } {
  // Asked for by id, the lookup goes by id: a dialect may keep the scope's index out of the plan
  // (SQLite would scan the whole scope through it, then look for the ids).
  const scoped = (column: string) =>
    filter.ids && d.unindexed ? d.unindexed(`${alias}${column}`) : `${alias}${column}`;
  const where = [`${scoped("tenant")} = ?`, `${scoped("agent")} = ?`];
  const params: unknown[] = [scope.tenant, scope.agent];
  // A session's memories are found by the session's index: the status one would walk the scope.
  const bySession = (column: string) =>
    filter.sessionId && column === "status" && d.unindexed
      ? d.unindexed(`${alias}${column}`)
      : `${alias}${column}`;
  const inList = (column: string, values: string[] | undefined) => {
    if (!values) return;
    // One value as a plain equality, so the planner can walk an index in a list's order.
    if (values.length === 1) {
      where.push(`${bySession(column)} = ?`);
      params.push(values[0]);
      return;
    }
    where.push(d.inList(`${alias}${column}`));
    params.push(d.list(values));
  };
  inList("status", filter.status === "any" ? undefined : (asList(filter.status) ?? ["active"]));
  inList("about", asList(filter.about));
  inList("kind", asList(filter.kind));
  if (filter.strategy) {
    where.push(`${alias}strategy = ?`);
    params.push(filter.strategy);
  }
  if (filter.sessionId) {
    where.push(`${alias}session_id = ?`);
    params.push(filter.sessionId);
  }
  inList("id", filter.ids);
  // Times are ISO-8601 in UTC (text in the "C" order on Postgres), so text order is time order.
  const compare = (condition: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    params.push(value);
  };
  compare(`${alias}observed_at >= ?`, filter.observedAfter);
  compare(`${alias}observed_at < ?`, filter.observedBefore);
  if (filter.validAfter !== undefined) {
    where.push(`(${alias}invalid_at IS NULL OR ${alias}invalid_at > ?)`);
    params.push(filter.validAfter);
  }
  compare(`${alias}observed_at <= ?`, filter.validBefore);
  if (filter.meta) {
    const meta = metaWhere(d, `${alias}attributes`, ["meta"], filter.meta);
    where.push(...meta.where);
    params.push(...meta.params);
  }
  if (filter.hearing) {
    // core/audience.ts's hearingTest, in SQL: a private memory only for those it stays with;
    // under partner scope, only what a present partner heard (or, with no audience recorded,
    // what is about one of them).
    const present = d.list(filter.hearing.partners);
    const attributes = `${alias}attributes`;
    where.push(
      `(${d.jsonText(attributes, "privateTo")} IS NULL OR ${d.jsonListMeets(attributes, "privateTo")})`,
    );
    params.push(present);
    if (filter.hearing.scope === "partner") {
      where.push(
        `(${d.jsonListMeets(attributes, "audience")} OR (${d.jsonText(attributes, "audience")} IS NULL AND ${d.inList(`${alias}about`)}))`,
      );
      params.push(present, present);
    }
  }
  return { sql: where.join(" AND "), params };
}
