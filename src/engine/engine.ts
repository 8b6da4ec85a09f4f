/**
 * The engine behind every tenant view: the parts, the per-turn path and the consolidation queue,
 * with the session steps that session handles, conversations and the facade share (turns,
 * session updates, reply, close). Each use case lives in its own folder (reply/, session/,
 * consolidation/, forget/, ingest/, history/, standing/, privacy/); maintenance.ts holds
 * retry and reindex. Internal: users hold `Memlane` (memlane.ts), which validates input and
 * scopes calls.
 */
import { ConflictError } from "../core/errors.js";
import type { Scope, Session, Turn } from "../core/types.js";
import { consolidate } from "./consolidation/consolidator.js";
import { admit } from "./consolidation/job-queue.js";
import type { JobInfo } from "./events.js";
import type { EngineParts } from "./parts.js";
import { type ReplyResult, replyInSession } from "./reply/reply.js";
import { type PerTurnMode, TurnPath, type TurnRequest, type TurnTarget } from "./session/turn-path.js";

export type { ReplyResult } from "./reply/reply.js";

export class Engine {
  readonly turns: TurnPath;
  private closed = false;

  constructor(readonly parts: EngineParts) {
    this.turns = new TurnPath(parts);
    parts.queue.process(
      async (job) => (await consolidate(parts, { tenant: job.tenant, agent: job.agent }, job.sessionId)).ok,
      (job) => parts.events.emit("job", job),
      parts.store.listClosedSessions
        ? async () =>
            (await parts.store.listClosedSessions!()).map((s) => ({
              tenant: s.tenant,
              agent: s.agent,
              sessionId: s.id,
              at: s.at,
            }))
        : undefined,
    );
  }

  /** Refuses work once the engine is closing. */
  assertOpen(): void {
    if (this.closed) throw new ConflictError("This memlane engine is closed");
  }

  addTurn(targets: TurnTarget[], request: TurnRequest, mode: PerTurnMode): Promise<Turn[]> {
    this.assertOpen();
    return this.turns.add(targets, request, mode);
  }

  settled(scope: Scope, sessionId: string): Promise<void> {
    return this.turns.settled(scope, sessionId);
  }

  /**
   * Changes a stored session in its place among the session's writes: `change` gets the session
   * as stored and returns its new partners and meta. Returns the session as written.
   */
  updateSession(
    target: TurnTarget,
    change: (stored: Session) => Pick<Session, "partners" | "meta">,
  ): Promise<Session> {
    this.assertOpen();
    return this.turns.inOrder([target], async () => {
      const stored = await this.parts.store.getSession(target.scope, target.session.id);
      if (!stored) throw new ConflictError(`Session "${target.session.id}" is gone`);
      if (stored.status !== "open") throw new ConflictError(`Session "${stored.id}" is ${stored.status}`);
      const { partners, meta } = change(stored);
      await this.parts.store.write(target.scope, { sessionUpdates: [{ id: stored.id, partners, meta }] });
      return { ...stored, partners, meta };
    });
  }

  /** The agent's next utterance in a session (reply/reply.ts). */
  reply(scope: Scope, session: Session, query?: string, signal?: AbortSignal): Promise<ReplyResult> {
    this.assertOpen();
    return replyInSession(this.parts, this.turns, scope, session, query, signal);
  }

  /**
   * Marks the sessions closed — after every earlier turn and its per-turn work — and queues their
   * consolidation.
   */
  async close(targets: TurnTarget[]): Promise<{ job: JobInfo; done: Promise<JobInfo> }[]> {
    this.assertOpen();
    // A tenant whose line is full is refused before the session changes: it stays open, and the
    // same close succeeds once the line has room.
    for (const tenant of new Set(targets.map((t) => t.scope.tenant))) await this.admit(tenant);
    await this.turns.inOrder(targets, async () => {
      for (const t of targets) await this.turns.workSettled(t.scope, t.session.id);
      await this.parts.store.writeMany(
        targets.map((t) => ({
          scope: t.scope,
          batch: { sessionStatus: [{ id: t.session.id, status: "closed" }] },
        })),
      );
    });
    const jobs = [];
    for (const t of targets) jobs.push(await this.enqueue(t.scope, t.session.id));
    return jobs;
  }

  /**
   * Ends sessions that hold no turns: there is nothing to consolidate, so they are marked
   * consolidated at once (no job), not left open or queued for work that would find nothing.
   */
  async closeEmpty(targets: TurnTarget[]): Promise<void> {
    this.assertOpen();
    await this.turns.inOrder(targets, async () => {
      await this.parts.store.writeMany(
        targets.map((t) => ({
          scope: t.scope,
          batch: { sessionStatus: [{ id: t.session.id, status: "consolidated" }] },
        })),
      );
    });
  }

  /**
   * Refuses a new consolidation job for a tenant whose line is full (`maxPendingJobs`).
   * @throws {BusyError} the tenant's line is full
   */
  admit(tenant: string): Promise<void> {
    return admit(this.parts.queue, tenant, this.parts.maxPendingJobs);
  }

  /** Queues the consolidation of one closed session. */
  enqueue(scope: Scope, sessionId: string) {
    return this.parts.queue.enqueue({
      kind: "consolidate",
      tenant: scope.tenant,
      agent: scope.agent,
      sessionId,
    });
  }

  /** Sessions of the scope a consolidation job is queued or running for in this process's queue. */
  queuedSessions(scope: Scope): Set<string> {
    return new Set(
      this.parts.queue
        .jobs()
        .filter(
          (j) =>
            j.tenant === scope.tenant &&
            j.agent === scope.agent &&
            (j.state === "queued" || j.state === "running"),
        )
        .map((j) => j.sessionId),
    );
  }

  /** Waits for every write, per-turn work and consolidation, then refuses new work. */
  async shutdown(): Promise<void> {
    await this.turns.drain();
    await this.parts.queue.idle();
    this.closed = true;
    await this.turns.drain();
  }
}
