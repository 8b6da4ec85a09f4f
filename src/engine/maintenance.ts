/**
 * Keeping a scope healthy after something went wrong: what has not reached memory yet
 * (`waiting`), what failed (`failures`), running it again (`retry`), and filling the vectors an
 * agent's rows lack under the current embedder (`reindex`).
 */
import { definedStep } from "../cognition/step.js";
import { SchemaMismatchError } from "../core/errors.js";
import { addUsage, type Operation, type Scope, type Session } from "../core/types.js";
import { turnVectors } from "../retrieval/turn-embedding-text.js";
import type { WriteBatch } from "../store/memory-store.js";
import type { SessionContext } from "../strategies/strategy.js";
import { applyStaged } from "./consolidation/apply-staged.js";
import type { Engine } from "./engine.js";
import type { JobInfo } from "./events.js";
import { errorText, failureOutputs, failureUsage, newOperation } from "./operations.js";
import { portsFor } from "./parts.js";

/** What `retry` ran: each failed per-turn work, each consolidation job, each failed step item. */
export interface RetryReport {
  turns: { op: string; ok: boolean }[];
  jobs: JobInfo[];
  /** Failed STEP operations asked again (items of a batched step that had taken its fallback). */
  steps: { op: string; ok: boolean }[];
}

/** Vectors `reindex` stored. */
export interface ReindexReport {
  turns: number;
  memories: number;
}

/**
 * Failed consolidations, per-turn work (not work this process still owes) and step items that
 * still wait for a retry.
 */
export async function failuresIn(engine: Engine, scope: Scope): Promise<Operation[]> {
  const { store } = engine.parts;
  const failed = new Set((await store.listSessions(scope, { status: "failed" })).map((s) => s.id));
  return (await store.listOperations(scope, { status: "failed" })).filter(
    (o) =>
      (o.type === "CONSOLIDATE" && o.sessionId !== null && failed.has(o.sessionId)) ||
      (o.type === "TURN" && !engine.turns.owes(o.id)) ||
      isRedoable(o),
  );
}

/** A failed STEP operation that kept its input: an item `retry` can ask the model again. */
function isRedoable(o: Operation): boolean {
  return o.type === "STEP" && (o.inputs as { input?: unknown } | null)?.input !== undefined;
}

/**
 * Asks the model again for a failed step item. Answered, the session's strategy stages what the
 * answer changes (`onRetried`: theanine links the pair), and the operation is done and holds the
 * answer; a strategy without the hook keeps what its fallback decided, the answer beside it.
 * Still unanswered, the operation stays failed with the new attempts.
 */
async function retryStep(engine: Engine, scope: Scope, op: Operation): Promise<boolean> {
  const { parts } = engine;
  const { store, cognition } = parts;
  const inputs = op.inputs as { step: string; input: unknown };
  const step = definedStep(inputs.step);
  if (!step) return false;
  try {
    const result = await cognition.run(step, inputs.input);
    if (result.failures?.length) throw new SchemaMismatchError(result.failures[0]!.error, {});
    const staged: WriteBatch[] = [];
    const session = op.sessionId ? await store.getSession(scope, op.sessionId) : null;
    const strategy = parts.strategies.get(op.strategy);
    if (session && strategy.onRetried) {
      const ctx: SessionContext = {
        ...portsFor(parts, scope),
        session,
        turns: await store.listTurns(scope, { sessionId: session.id }),
        stage: (batch) => staged.push(batch),
        operation: (fields) =>
          newOperation(scope, strategy.name, result.model, session.id, session.at, fields),
      };
      await strategy.onRetried(ctx, { step: step.name, input: inputs.input, value: result.value });
    }
    await applyStaged(parts, [
      {
        scope,
        staged,
        extra: {
          operationStatus: [
            {
              id: op.id,
              status: "done",
              error: null,
              outputs: { ...(op.outputs as object), answer: result.value, answeredOnRetry: true },
              usage: addUsage(op.usage, result.usage),
            },
          ],
        },
      },
    ]);
    return true;
  } catch (error) {
    await store.write(scope, {
      operationStatus: [
        {
          id: op.id,
          status: "failed",
          error: errorText(error),
          outputs: { ...(op.outputs as object), attempts: failureOutputs(error).attempts },
          usage: addUsage(op.usage, failureUsage(error)),
        },
      ],
    });
    return false;
  }
}

/**
 * Sessions whose turns have not reached memory yet: open ones holding turns (still talking, or
 * left behind by a killed process) and closed ones no job is consolidating (a process that died
 * mid-consolidation). `retry` finishes them.
 */
export async function waitingIn(
  engine: Engine,
  scope: Scope,
): Promise<{ session: Session; turns: number }[]> {
  const { store } = engine.parts;
  const queued = engine.queuedSessions(scope);
  const out: { session: Session; turns: number }[] = [];
  for (const s of await store.listSessions(scope, { status: ["open", "closed"] })) {
    if (s.status === "closed" && queued.has(s.id)) continue;
    const turns = (await store.listTurns(scope, { sessionId: s.id })).length;
    if (turns > 0) out.push({ session: s, turns });
  }
  return out;
}

/**
 * Runs again every failed per-turn work of the scope (or of one session), in turn order, then
 * every failed or interrupted consolidation that is not queued already.
 */
export async function retryIn(
  engine: Engine,
  scope: Scope,
  sessionId?: string,
  options: { open?: boolean } = {},
): Promise<RetryReport> {
  engine.assertOpen();
  const { store } = engine.parts;
  // Open sessions left behind (a killed chat, a crashed server) are closed first when asked:
  // by naming the session, or with `open` for all of them.
  const open = (await store.listSessions(scope, { status: "open" })).filter((s) =>
    sessionId === undefined ? options.open : s.id === sessionId,
  );
  const closing: Promise<JobInfo>[] = [];
  for (const s of open)
    if ((await store.listTurns(scope, { sessionId: s.id })).length > 0)
      for (const j of await engine.close([{ scope, session: s }])) closing.push(j.done);
  const turnOps = (await failuresIn(engine, scope)).filter(
    (o) => o.type === "TURN" && (sessionId === undefined || o.sessionId === sessionId),
  );
  const order = await turnOrder(engine, scope, turnOps);
  turnOps.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const turns: { op: string; ok: boolean }[] = [];
  for (const op of turnOps) turns.push({ op: op.id, ok: await engine.turns.retry(scope, op) });
  const steps: { op: string; ok: boolean }[] = [];
  for (const op of (await failuresIn(engine, scope)).filter(
    (o) => isRedoable(o) && (sessionId === undefined || o.sessionId === sessionId),
  ))
    steps.push({ op: op.id, ok: await retryStep(engine, scope, op) });
  const queued = engine.queuedSessions(scope);
  const sessions = (await store.listSessions(scope, { status: ["failed", "closed"] })).filter(
    (s) => (sessionId === undefined || s.id === sessionId) && !queued.has(s.id),
  );
  const jobs: JobInfo[] = await Promise.all(closing);
  for (const s of sessions) jobs.push(await (await engine.enqueue(scope, s.id)).done);
  return { turns, jobs, steps };
}

/** The place of each TURN operation's turn: session time, then turn index. */
async function turnOrder(engine: Engine, scope: Scope, ops: Operation[]): Promise<Map<string, number>> {
  const { store } = engine.parts;
  const order = new Map<string, number>();
  const sessions = [...new Set(ops.map((o) => o.sessionId!))];
  const places = new Map<string, number>();
  let place = 0;
  for (const s of (await store.listSessions(scope)).filter((x) => sessions.includes(x.id)))
    for (const t of await store.listTurns(scope, { sessionId: s.id })) places.set(t.id, place++);
  for (const o of ops) order.set(o.id, places.get((o.inputs as { turn?: string })?.turn ?? "") ?? place);
  return order;
}

/**
 * Stores the vectors an agent's turns and memories lack under the current embedder (written by
 * an older memlane, or under another model). Reads never fill them; this does, in one write.
 */
export async function reindexScope(engine: Engine, scope: Scope): Promise<ReindexReport> {
  const { store, embedder } = engine.parts;
  const { fresh } = await turnVectors(store, scope, embedder, await store.listTurns(scope));
  const memories = await store.listMemories(scope, { status: "any" });
  const stored = await store.getEmbeddings(
    scope,
    "memory",
    memories.map((m) => m.id),
    embedder.name,
  );
  const missing = memories.filter((m) => !stored.has(m.id));
  const vectors = await embedder.embed(missing.map((m) => m.text));
  const records = missing.map((m, i) => ({
    ownerKind: "memory" as const,
    ownerId: m.id,
    model: embedder.name,
    vector: vectors[i]!,
  }));
  if (fresh.length || records.length) await store.write(scope, { embeddings: [...fresh, ...records] });
  return { turns: fresh.length, memories: records.length };
}
