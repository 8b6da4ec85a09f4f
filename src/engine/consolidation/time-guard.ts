/**
 * Conversation time decides what is current, for every strategy's writes. A memory written from
 * an older conversation (a late file, a retry after later sessions, an old session consolidated
 * last) never retires a memory learned later: the newcomer is kept as that memory's past instead
 * (superseded from the newer memory's time, with a `Supersedes` edge from the newer memory), and
 * a retirement with no replacement that is older than its memory is dropped. Both are logged.
 * Carecall decides this itself before its pair operator's verdict is applied (it shows the
 * operator both dates); this guard is where every other strategy's writes are held to the rule.
 */
import type { Edge, Memory, Operation, Scope } from "../../core/types.js";
import type { MemoryStore, Supersession } from "../../store/memory-store.js";
import { newOperation } from "../operations.js";

/** Applies the rule to a merged batch in place, reading the memories it would retire. */
export async function holdToConversationTime(
  store: MemoryStore,
  scope: Scope,
  batch: { memories: Memory[]; supersede: Supersession[]; edges: Edge[]; operations: Operation[] },
): Promise<void> {
  if (batch.supersede.length === 0) return;
  const added = new Map(batch.memories.map((m) => [m.id, m]));
  const retiredIds = [...new Set(batch.supersede.map((x) => x.oldId))].filter((id) => !added.has(id));
  if (retiredIds.length === 0) return;
  const stored = new Map(
    (await store.listMemories(scope, { ids: retiredIds, status: "any" })).map((m) => [m.id, m]),
  );
  const kept: Supersession[] = [];
  for (const x of batch.supersede) {
    const old = stored.get(x.oldId);
    const by = x.byId ? added.get(x.byId) : undefined;
    const when = by?.observedAt ?? x.at;
    if (!old || when >= old.observedAt) {
      kept.push(x);
      continue;
    }
    const origin = originOf(batch.operations, x.byId ?? x.oldId);
    if (by) {
      // Several newer memories: the newcomer is the past of the earliest of them.
      if (by.status !== "superseded" || (by.invalidAt ?? "") > old.observedAt) {
        by.status = "superseded";
        by.invalidAt = old.observedAt;
        by.attributes = { ...by.attributes, olderThan: old.id };
      }
      batch.edges.push(pastEdge(scope, old, by));
    }
    batch.operations.push(
      newOperation(
        scope,
        origin?.strategy ?? by?.strategy ?? old.strategy,
        origin?.model ?? "none",
        origin?.sessionId ?? null,
        when,
        {
          type: "APPEND",
          memoryIds: [old.id, ...(by ? [by.id] : [])],
          inputs: {
            memory: old.text,
            ...(by ? { statement: by.text } : {}),
            wanted: x.reason ?? "SUPERSEDE",
          },
          outputs: by ? { memory: by.id, status: "superseded", by: old.id } : { kept: old.id },
          rationale: `said on ${when.slice(0, 10)}, before the memory it would have retired (${old.observedAt.slice(0, 10)}): ${by ? "kept as its past" : "the memory stays current"}`,
        },
      ),
    );
  }
  batch.supersede = kept;
}

/** The staged operation that wrote or named a memory, for the strategy, model and session to log under. */
function originOf(operations: Operation[], memoryId: string): Operation | undefined {
  return operations.find((op) => op.memoryIds.includes(memoryId)) ?? operations[0];
}

function pastEdge(scope: Scope, newer: Memory, past: Memory): Edge {
  return {
    id: `edge_${newer.id}_${past.id}`,
    tenant: scope.tenant,
    agent: scope.agent,
    from: newer.id,
    to: past.id,
    type: "Supersedes",
    attributes: { reason: "older statement, learned later" },
    recordedAt: new Date().toISOString(),
  };
}
