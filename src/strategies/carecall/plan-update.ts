/**
 * Turns Algorithm 1's verdict into store writes, without erasing anything: removed memories are
 * superseded (linked to what replaced them), DELETEd summary sentences are kept as retired rows so
 * the timeline shows the change, and every effective decision becomes an operation.
 */
import type { PairDecision } from "../../cognition/inputs.js";
import type { MemoryUpdateResult } from "../../core/memory-update.js";
import type { Edge, Memory, Operation, Statement } from "../../core/types.js";
import type { Supersession, WriteBatch } from "../../store/memory-store.js";
import { statementMemory } from "../kit/statement-memory.js";
import type { SessionContext } from "../strategy.js";

export interface PlanInput {
  memories: Memory[];
  statements: Statement[];
  update: MemoryUpdateResult;
  /** Decisions of the classified pairs, by "m:s". */
  decisions: Map<string, PairDecision>;
  /** Fused sentence texts, by "m:s". */
  fused: Map<string, string>;
  model: string;
  /**
   * Statements older than a memory they would have replaced, by statement index: each is kept as
   * that memory's past (superseded from the memory's time, linked to it).
   */
  behind?: Map<number, number>;
}

export function planUpdate(ctx: SessionContext, input: PlanInput): WriteBatch {
  const { memories, statements, update, decisions } = input;
  const at = ctx.session.at;
  const row = (s: Statement, fields: Partial<Memory> = {}): Memory =>
    statementMemory(ctx, "carecall", s, fields);
  const rows: Memory[] = [];
  const ops: Operation[] = [];
  const supersede: Supersession[] = [];
  const rowOfSummary = new Map<number, Memory>();
  const edges: Edge[] = [];
  for (const s of update.addedSummary) {
    const newer = input.behind?.get(s);
    if (newer === undefined) {
      rowOfSummary.set(s, row(statements[s]!));
      continue;
    }
    const memory = memories[newer]!;
    const past = row(statements[s]!, {
      status: "superseded",
      invalidAt: memory.observedAt,
      attributes: { ...(statements[s]!.attributes ?? {}), olderThan: memory.id },
    });
    rowOfSummary.set(s, past);
    edges.push({
      id: `edge_${memory.id}_${past.id}`,
      tenant: ctx.scope.tenant,
      agent: ctx.scope.agent,
      from: memory.id,
      to: past.id,
      type: "Supersedes",
      attributes: { reason: "older statement, learned later" },
      recordedAt: new Date().toISOString(),
    });
    ops.push(
      ctx.operation({
        type: "APPEND",
        model: input.model,
        memoryIds: [past.id, memory.id],
        inputs: { memory: memory.text, summary: statements[s]!.text },
        outputs: { memory: past.id, status: "superseded", by: memory.id },
        rationale: `said on ${statements[s]!.observedAt.slice(0, 10)}, before the memory it would have updated (${memory.observedAt.slice(0, 10)}): kept as its past`,
      }),
    );
  }
  // A summary sentence dropped by DELETE is kept, retired, so the change stays visible.
  for (const [s, why] of update.droppedSummary)
    if (why.some((w) => w.label === "DELETE"))
      rowOfSummary.set(
        s,
        row(statements[s]!, {
          status: "superseded",
          invalidAt: at,
          attributes: { ...(statements[s]!.attributes ?? {}), retired: "DELETE" },
        }),
      );
  rows.push(...rowOfSummary.values());
  const fusedRows = new Map<string, Memory>();
  for (const f of update.fusions) {
    const key = `${f.memory}:${f.summary}`;
    const s = statements[f.summary]!;
    const m = memories[f.memory]!;
    const fusedRow = row(
      {
        ...s,
        text: input.fused.get(key) ?? s.text,
        sourceTurns: [...new Set([...m.sourceTurns, ...s.sourceTurns])],
      },
      { attributes: { fusedFrom: { memory: m.id, summary: s.text } } },
    );
    fusedRows.set(key, fusedRow);
    rows.push(fusedRow);
  }
  const label = (m: number, s: number) => decisions.get(`${m}:${s}`);
  for (const [m, removers] of update.removedMemory) {
    const memory = memories[m]!;
    const first = removers[0]!;
    const key = `${m}:${first.by}`;
    if (first.label === "FUSION") {
      supersede.push({
        oldId: memory.id,
        byId: fusedRows.get(key)!.id,
        at,
        edge: "FusedInto",
        reason: "FUSION",
      });
    } else {
      // The replacing sentence may itself have been absorbed by a surviving memory (PASS).
      const target = rowOfSummary.get(first.by)?.id ?? passTarget(update, first.by, memories);
      supersede.push({ oldId: memory.id, byId: target, at, reason: first.label });
    }
    for (const r of removers) {
      const targetId = r.label === "FUSION" ? fusedRows.get(`${m}:${r.by}`)!.id : rowOfSummary.get(r.by)?.id;
      ops.push(
        ctx.operation({
          type: r.label,
          model: input.model,
          memoryIds: [memory.id, ...(targetId ? [targetId] : [])],
          inputs: { memory: memory.text, summary: statements[r.by]!.text },
          outputs: { kept: targetId ?? null },
          rationale: label(m, r.by)?.rationale ?? null,
        }),
      );
    }
  }
  const evidence: { memoryId: string; turns: string[] }[] = [];
  for (const [s, why] of update.droppedSummary)
    for (const w of why.filter((x) => x.label === "PASS")) {
      const memory = memories[w.by]!;
      // The same fact said again: the memory keeps it, and the turns that said it again join
      // its evidence (so a forget of those turns reaches it too).
      const again = label(w.by, s)?.rule === "same";
      const turns = again ? statements[s]!.sourceTurns.filter((t) => !memory.sourceTurns.includes(t)) : [];
      if (turns.length > 0) evidence.push({ memoryId: memory.id, turns });
      ops.push(
        ctx.operation({
          type: "PASS",
          model: input.model,
          memoryIds: [memory.id],
          inputs: { memory: memory.text, summary: statements[s]!.text },
          ...(again ? { outputs: { kept: memory.id, evidence: turns } } : {}),
          rationale: label(w.by, s)?.rationale ?? null,
        }),
      );
    }
  for (const [s, r] of rowOfSummary)
    if (
      r.status === "active" &&
      ![...update.removedMemory.values()].some((rs) => rs.some((x) => x.by === s && x.label === "REPLACE"))
    )
      ops.push(
        ctx.operation({
          type: "APPEND",
          model: input.model,
          memoryIds: [r.id],
          outputs: { memory: r.id, text: r.text },
          rationale: appendedWhy(memories, s, label),
        }),
      );
  return { memories: rows, supersede, edges, operations: ops, ...(evidence.length ? { evidence } : {}) };
}

/**
 * Why a statement was kept beside the memories it met: a rule's reason (an addition), or an
 * operator's decision taken otherwise ("taken as APPEND"), when one says so; else that nothing
 * held it yet.
 */
function appendedWhy(
  memories: Memory[],
  s: number,
  label: (m: number, s: number) => PairDecision | undefined,
): string {
  for (const m of memories.keys()) {
    const d = label(m, s);
    if (d?.label === "APPEND" && (d.rule || /taken as APPEND/.test(d.rationale ?? "")) && d.rationale)
      return `beside "${memories[m]!.text}": ${d.rationale}`;
  }
  return "no memory held this yet";
}

function passTarget(update: MemoryUpdateResult, s: number, memories: Memory[]): string | null {
  const pass = update.droppedSummary.get(s)?.find((w) => w.label === "PASS");
  return pass ? memories[pass.by]!.id : null;
}
