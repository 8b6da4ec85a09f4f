/**
 * A MemoryFilter as a test on one memory, with the stores' meaning: every field given must
 * match, a list matches any of its values, and `status` is "active" unless the filter says
 * otherwise ("any" admits every status). Indexes and strategies that hold memories in this
 * process filter them with it; the SQL stores say the same in their WHERE clauses.
 */
import { hearingTest } from "./audience.js";
import { metaTest } from "./meta-filter.js";
import type { Memory, MemoryFilter } from "./types.js";

export function memoryFilterTest(filter: MemoryFilter = {}): (m: Memory) => boolean {
  const asSet = (v: string | string[] | undefined) =>
    v === undefined ? null : new Set(Array.isArray(v) ? v : [v]);
  const statuses = filter.status === "any" ? null : asSet(filter.status ?? "active");
  const abouts = asSet(filter.about);
  const kinds = asSet(filter.kind);
  const ids = filter.ids ? new Set(filter.ids) : null;
  const heard = filter.hearing ? hearingTest(filter.hearing) : null;
  const meta = filter.meta ? metaTest(filter.meta) : null;
  const { observedAfter, observedBefore, validAfter, validBefore } = filter;
  // Times are ISO-8601 in UTC, so text order is time order (as in the stores).
  return (m) =>
    (!statuses || statuses.has(m.status)) &&
    (!abouts || abouts.has(m.about)) &&
    (!kinds || kinds.has(m.kind)) &&
    (!filter.strategy || m.strategy === filter.strategy) &&
    (!filter.sessionId || m.sessionId === filter.sessionId) &&
    (!ids || ids.has(m.id)) &&
    (observedAfter === undefined || m.observedAt >= observedAfter) &&
    (observedBefore === undefined || m.observedAt < observedBefore) &&
    (validAfter === undefined || m.invalidAt === null || m.invalidAt > validAfter) &&
    (validBefore === undefined || m.observedAt <= validBefore) &&
    (!meta || meta(m.attributes.meta)) &&
    (!heard || heard(m));
}
