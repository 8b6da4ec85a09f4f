/**
 * A scope's change sequence, written once for every SQL store. Each transaction that changes a
 * scope first moves the scope's version (`bumpVersion`); triggers on memories, turns, edges and
 * embeddings then log every row they insert, update or delete under that version
 * (`scope_changes`, created by each store's migrations). A process that holds a search index
 * built at version v reads what changed since (`readChanges`) and updates the index in place,
 * whoever wrote it, instead of building it again. The log is pruned as the version moves; a
 * reader older than the pruned part (`scope_horizons`) gets null and builds afresh.
 */
import type { Scope } from "../../core/types.js";
import type { ScopeChanges } from "../memory-store.js";
import { change, type SqlProgram, select } from "./program.js";

/** Versions of a scope's log kept; older ones are pruned every PRUNE_EVERY versions. */
export const CHANGES_KEPT = 4096;
const PRUNE_EVERY = 256;

/**
 * Moves the scope's version inside the caller's transaction, before any of its rows change (the
 * triggers read it). On Postgres the row stays locked until commit, so the scope's writers take
 * turns and their versions follow their commits.
 */
export function* bumpVersion(scope: Scope): SqlProgram<number> {
  const [row] = yield* select(
    `INSERT INTO scope_versions (tenant, agent, version) VALUES (?, ?, 1)
     ON CONFLICT (tenant, agent) DO UPDATE SET version = scope_versions.version + 1 RETURNING version`,
    scope.tenant,
    scope.agent,
  );
  const version = Number(row?.version ?? 1);
  if (version % PRUNE_EVERY === 0 && version > CHANGES_KEPT) {
    const horizon = version - CHANGES_KEPT;
    yield* change(
      "DELETE FROM scope_changes WHERE tenant = ? AND agent = ? AND seq <= ?",
      scope.tenant,
      scope.agent,
      horizon,
    );
    yield* change(
      `INSERT INTO scope_horizons (tenant, agent, horizon) VALUES (?, ?, ?)
       ON CONFLICT (tenant, agent) DO UPDATE SET horizon = excluded.horizon`,
      scope.tenant,
      scope.agent,
      horizon,
    );
  }
  return version;
}

/**
 * What changed in the scope after version `since`: the ids of memories, turns and vectors whose
 * rows were inserted, updated or deleted, and the edges (with their ends). Null when the log no
 * longer reaches back to `since`.
 */
export function* readChanges(scope: Scope, since: string): SqlProgram<ScopeChanges | null> {
  const from = Number(since);
  const [head] = yield* select(
    `SELECT v.version, coalesce(h.horizon, 0) AS horizon FROM scope_versions v
     LEFT JOIN scope_horizons h ON h.tenant = v.tenant AND h.agent = v.agent
     WHERE v.tenant = ? AND v.agent = ?`,
    scope.tenant,
    scope.agent,
  );
  const version = Number(head?.version ?? 0);
  if (!Number.isInteger(from) || from < Number(head?.horizon ?? 0) || from > version) return null;
  const changes: ScopeChanges = {
    version: String(version),
    memories: [],
    turns: [],
    memoryVectors: [],
    turnVectors: [],
    edges: [],
  };
  if (from === version) return changes;
  const rows = yield* select(
    "SELECT DISTINCT kind, id, src, dst FROM scope_changes WHERE tenant = ? AND agent = ? AND seq > ? AND seq <= ?",
    scope.tenant,
    scope.agent,
    from,
    version,
  );
  for (const r of rows) {
    const id = String(r.id);
    if (r.kind === "memory") changes.memories.push(id);
    else if (r.kind === "turn") changes.turns.push(id);
    else if (r.kind === "memory-vector") changes.memoryVectors.push(id);
    else if (r.kind === "turn-vector") changes.turnVectors.push(id);
    else if (r.kind === "edge") changes.edges.push({ id, from: String(r.src), to: String(r.dst) });
  }
  return changes;
}
