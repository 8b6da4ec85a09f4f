/**
 * End-of-session consolidation, run one job at a time in the background. A job embeds the
 * session's turns, runs the strategy's onSessionEnd, and applies everything it staged, with the
 * session marked consolidated, in one transaction. A job that fails writes nothing but a failed
 * CONSOLIDATE operation holding its inputs and the error, and marks the session failed so it can
 * be retried.
 */
import type { Cognition } from "../cognition/cognition.js";
import { isMemlaneError } from "../core/errors.js";
import { newId } from "../core/ids.js";
import { emptyUsage, type Operation, type Scope, type Session } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { Retriever } from "../retrieval/retriever.js";
import { turnVectors } from "../retrieval/turn-embedding-text.js";
import type { MemoryStore, WriteBatch } from "../store/memory-store.js";
import type { SessionContext, Strategy } from "../strategies/strategy.js";
import type { EventStream, JobInfo } from "./events.js";

export interface ConsolidatorPorts {
  store: MemoryStore;
  cognition: Cognition;
  embedder: Embedder;
  retriever: Retriever;
  events: EventStream;
  strategyFor(name: string): Strategy;
}

/** Concatenates staged batches in order. */
export function mergeBatches(batches: WriteBatch[]): WriteBatch {
  const out: Required<WriteBatch> = {
    sessions: [],
    sessionStatus: [],
    turns: [],
    memories: [],
    supersede: [],
    edges: [],
    embeddings: [],
    operations: [],
    operationStatus: [],
  };
  for (const b of batches)
    for (const key of Object.keys(out) as (keyof WriteBatch)[])
      (out[key] as unknown[]).push(...((b[key] as unknown[]) ?? []));
  return out;
}

export function newOperation(
  scope: Scope,
  strategy: string,
  model: string,
  sessionId: string | null,
  at: string,
  fields: Pick<Operation, "type"> & Partial<Operation>,
): Operation {
  return {
    id: newId("op"),
    tenant: scope.tenant,
    agent: scope.agent,
    status: "done",
    strategy,
    model,
    sessionId,
    memoryIds: [],
    inputs: null,
    outputs: null,
    rationale: null,
    error: null,
    usage: emptyUsage(),
    at,
    recordedAt: new Date().toISOString(),
    ...fields,
  };
}

export class Consolidator {
  private chain: Promise<void> = Promise.resolve();
  private readonly jobList: JobInfo[] = [];
  private pending = 0;

  constructor(private readonly ports: ConsolidatorPorts) {}

  /** Jobs of this process, newest last (the last 200 are kept). */
  jobs(): JobInfo[] {
    return this.jobList.map((j) => ({ ...j }));
  }

  get queued(): number {
    return this.pending;
  }

  /** Queues a consolidation; the promise settles with the job when it has run. */
  enqueue(scope: Scope, sessionId: string): { job: JobInfo; done: Promise<JobInfo> } {
    const job: JobInfo = {
      id: newId("job"),
      agent: scope.agent,
      sessionId,
      state: "queued",
      queuedAt: new Date().toISOString(),
    };
    this.jobList.push(job);
    if (this.jobList.length > 200) this.jobList.shift();
    this.pending++;
    this.ports.events.emit("job", { ...job });
    const done = this.chain.then(async () => {
      job.state = "running";
      this.ports.events.emit("job", { ...job });
      try {
        const ok = await this.run(scope, sessionId);
        job.state = ok ? "done" : "failed";
        if (!ok) job.error = "consolidation failed; see the failed CONSOLIDATE operation";
      } catch (error) {
        job.state = "failed";
        job.error = (error as Error).message;
      }
      job.finishedAt = new Date().toISOString();
      this.pending--;
      this.ports.events.emit("job", { ...job });
      return { ...job };
    });
    this.chain = done.then(() => undefined);
    return { job: { ...job }, done };
  }

  /** Resolves when every queued job has run. */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.chain;
  }

  /** Runs one consolidation now. Returns false when it failed and was recorded as failed. */
  async run(scope: Scope, sessionId: string): Promise<boolean> {
    const { store, cognition, embedder, retriever, events } = this.ports;
    const session = await store.getSession(scope, sessionId);
    if (!session) throw new Error(`Session "${sessionId}" vanished before consolidation`);
    const turns = await store.listTurns(scope, { sessionId });
    const strategy = this.ports.strategyFor(session.strategy);
    const staged: WriteBatch[] = [];
    const ctx: SessionContext = {
      scope,
      store,
      cognition,
      embedder,
      retriever,
      session,
      turns,
      stage: (batch) => staged.push(batch),
      operation: (fields) =>
        newOperation(scope, strategy.name, cognition.name, session.id, session.at, fields),
    };
    try {
      // Ingest usually stored the turns' vectors already; live sessions' turns are embedded here.
      const { fresh: turnFresh } = await turnVectors(store, scope, embedder, turns);
      await strategy.onSessionEnd?.(ctx);
      const batch = mergeBatches(staged);
      const memoryVectors = await embedder.embed(batch.memories!.map((m) => m.text));
      batch.embeddings!.push(
        ...turnFresh,
        ...batch.memories!.map((m, i) => ({
          ownerKind: "memory" as const,
          ownerId: m.id,
          model: embedder.name,
          vector: memoryVectors[i]!,
        })),
      );
      batch.sessionStatus!.push({ id: session.id, status: "consolidated" });
      await store.write(scope, batch);
      for (const op of batch.operations!) events.emit("operation", op);
      return true;
    } catch (error) {
      await this.recordFailure(
        scope,
        session,
        strategy.name,
        turns.map((t) => t.id),
        error,
      );
      return false;
    }
  }

  private async recordFailure(
    scope: Scope,
    session: Session,
    strategy: string,
    turnIds: string[],
    error: unknown,
  ): Promise<void> {
    const details = isMemlaneError(error) ? error.details : {};
    const op = newOperation(scope, strategy, this.ports.cognition.name, session.id, session.at, {
      type: "CONSOLIDATE",
      status: "failed",
      inputs: { session: session.id, turns: turnIds, strategy },
      outputs: { attempts: details.attempts ?? null },
      error: `${isMemlaneError(error) ? `${error.code}: ` : ""}${(error as Error).message ?? String(error)}`,
      usage: (details.usage as Operation["usage"]) ?? emptyUsage(),
    });
    await this.ports.store.write(scope, {
      operations: [op],
      sessionStatus: [{ id: session.id, status: "failed" }],
    });
    this.ports.events.emit("operation", op);
  }
}
