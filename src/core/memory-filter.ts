/**
 * A MemoryFilter as a test on one memory, with the stores' meaning: every field given must
 * match, a list matches any of its values, and `status` is "active" unless the filter says
 * otherwise ("any" admits every status). Indexes and strategies that hold memories in this
 * process filter them with it; the SQL stores say the same in their WHERE clauses.
 */
import { hearingTest } from "./audience.js";
import type { Memory, MemoryFilter } from "./types.js";

export function memoryFilterTest(filter: MemoryFilter = {}): (m: Memory) => boolean {
  const asSet = (v: string | string[] | undefined) =>
    v === undefined ? null : new Set(Array.isArray(v) ? v : [v]);
  const statuses = filter.status === "any" ? null : asSet(filter.status ?? "active");
  const abouts = asSet(filter.about);
  const kinds = asSet(filter.kind);
  const ids = filter.ids ? new Set(filter.ids) : null;
  const heard = filter.hearing ? hearingTest(filter.hearing) : null;
  return (m) =>
    (!statuses || statuses.has(m.status)) &&
    (!abouts || abouts.has(m.about)) &&
    (!kinds || kinds.has(m.kind)) &&
    (!filter.strategy || m.strategy === filter.strategy) &&
    (!filter.sessionId || m.sessionId === filter.sessionId) &&
    (!ids || ids.has(m.id)) &&
    (!heard || heard(m));
}
