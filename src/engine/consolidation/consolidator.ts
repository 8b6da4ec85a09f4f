/**
 * Session-end consolidation of one closed session: its turns embedded (ingest usually stored
 * their vectors already), the strategy's onSessionEnd run, and everything it staged applied with
 * the session marked consolidated, in one transaction. A consolidation that fails writes nothing
 * but a failed CONSOLIDATE operation holding its inputs, the failing step and the error, and
 * marks the session failed so `retry` can run it again.
 */
import { isMemlaneError } from "../../core/errors.js";
import type { Scope, StepFailure } from "../../core/types.js";
import { turnVectors } from "../../retrieval/turn-embedding-text.js";
import type { WriteBatch } from "../../store/memory-store.js";
import type { SessionContext } from "../../strategies/strategy.js";
import { failedOperation, newOperation } from "../operations.js";
import { type EngineParts, portsFor } from "../parts.js";
import { keepsStanding, stageStanding } from "../standing/standing-memory.js";
import { notingFailures, stepFailureOperation } from "../step-failures.js";
import { applyStaged } from "./apply-staged.js";

/** How a consolidation ended; a failure carries the error's code (MODEL_UNAVAILABLE, SCHEMA_MISMATCH…). */
export type ConsolidationOutcome = { ok: true } | { ok: false; code: string; error: string };

/** Runs one consolidation now; a failure is recorded as a failed operation and returned, not thrown. */
export async function consolidate(
  parts: EngineParts,
  scope: Scope,
  sessionId: string,
): Promise<ConsolidationOutcome> {
  const { store, cognition, embedder } = parts;
  const session = await store.getSession(scope, sessionId);
  // A forget of the session while its job waited: there is nothing left to remember, and
  // nothing to retry.
  if (!session) return { ok: true };
  // A job run twice (a retry racing the queue, a worker restarted after its commit) writes once.
  if (session.status === "consolidated") return { ok: true };
  const readAt = new Date().toISOString();
  const turns = await store.listTurns(scope, { sessionId });
  const strategy = parts.strategies.get(session.strategy);
  const staged: WriteBatch[] = [];
  const failures: StepFailure[] = [];
  const ctx: SessionContext = {
    ...portsFor(parts, scope),
    cognition: notingFailures(cognition, failures, { fallBack: false }),
    session,
    turns,
    stage: (batch) => staged.push(batch),
    operation: (fields) => newOperation(scope, strategy.name, cognition.name, session.id, session.at, fields),
  };
  try {
    const { fresh } = await turnVectors(store, scope, embedder, turns);
    await strategy.onSessionEnd?.(ctx);
    if (keepsStanding(parts, strategy)) await stageStanding(parts, scope, session, turns, ctx.stage);
    // Items a batched step could not answer stood aside with its fallback: the session lands,
    // and each is a failed operation `retry` runs again.
    if (failures.length)
      staged.push({
        operations: failures.map((f) =>
          stepFailureOperation(scope, strategy.name, session.id, session.at, f),
        ),
      });
    await applyStaged(parts, [
      {
        scope,
        staged,
        extra: {
          // If a forget erased any of these turns meanwhile, nothing made from them is written.
          requireTurns: turns.map((t) => t.id),
          requireTurnsReadAt: readAt,
          embeddings: fresh,
          sessionStatus: [{ id: session.id, status: "consolidated" }],
        },
      },
    ]);
    return { ok: true };
  } catch (error) {
    const reason = isMemlaneError(error) ? error.details.reason : undefined;
    // Another run consolidated it meanwhile: nothing was written twice, and nothing failed.
    if (reason === "already-consolidated") return { ok: true };
    // A forget erased the session (or turns it was made from) meanwhile: nothing to keep, and no
    // failure row to write about a session that is gone.
    if (reason === "turns-forgotten" && !(await store.getSession(scope, session.id)))
      return { ok: false, code: "CONFLICT", error: "the session was forgotten during its consolidation" };
    const op = failedOperation(
      scope,
      "CONSOLIDATE",
      strategy.name,
      cognition.name,
      session.id,
      session.at,
      { session: session.id, turns: turns.map((t) => t.id), strategy: strategy.name },
      error,
    );
    try {
      await store.write(scope, { operations: [op], sessionStatus: [{ id: session.id, status: "failed" }] });
    } catch (again) {
      // Consolidated by another run while this one failed: the session is fine as it is.
      if (isMemlaneError(again) && again.details.reason === "already-consolidated") return { ok: true };
      throw again;
    }
    parts.events.emit("operation", op);
    return { ok: false, code: isMemlaneError(error) ? error.code : "UNEXPECTED", error: op.error ?? "" };
  }
}
