/**
 * The engine behind every tenant view: the parts, the per-turn path, the consolidation queue,
 * and the internal operations that session handles and the facade share (reply, close, retry,
 * failures). Internal: users hold `Memlane` (memlane.ts), which validates input and scopes calls.
 */
import type { ReplyInput } from "../cognition/inputs.js";
import type { Recall } from "../core/recall.js";
import { addUsage, type Operation, type Scope, type Session, type Turn } from "../core/types.js";
import { replyStepFor } from "../strategies/kit/steps/reply.js";
import { consolidate } from "./consolidator.js";
import type { JobInfo } from "./events.js";
import { newOperation } from "./operations.js";
import { type EngineParts, portsFor } from "./parts.js";
import {
  type PerTurnMode,
  sessionKey,
  type TurnPath,
  TurnPath as TurnPathImpl,
  type TurnRequest,
  type TurnTarget,
  UNFINISHED,
} from "./turn-path.js";

export interface ReplyResult {
  text: string;
  recall: Recall;
}

export class Engine {
  readonly turns: TurnPath;

  constructor(readonly parts: EngineParts) {
    this.turns = new TurnPathImpl(parts);
    parts.queue.process(
      (job) => consolidate(parts, { tenant: job.tenant, agent: job.agent }, job.sessionId),
      (job) => parts.events.emit("job", job),
    );
  }

  addTurn(targets: TurnTarget[], request: TurnRequest, mode: PerTurnMode): Promise<Turn[]> {
    return this.turns.add(targets, request, mode);
  }

  settled(scope: Scope, sessionId: string): Promise<void> {
    return this.turns.settled(sessionKey(scope, sessionId));
  }

  /**
   * The agent's next utterance, grounded in what the session's strategy recalls for the latest
   * partner turn (or `query`). Waits for the session's per-turn work first, so the reply sees it.
   */
  async reply(scope: Scope, session: Session, query?: string, signal?: AbortSignal): Promise<ReplyResult> {
    await this.settled(scope, session.id);
    const { store, cognition } = this.parts;
    const dialogue = await store.listTurns(scope, { sessionId: session.id });
    const lastPartnerTurn = [...dialogue].reverse().find((t) => t.speaker !== scope.agent);
    const partner = lastPartnerTurn?.speaker ?? session.partners[0]!;
    const q = query ?? lastPartnerTurn?.text ?? "";
    const strategy = this.parts.strategies.get(session.strategy);
    const recall = q.trim()
      ? await strategy.recall({ ...portsFor(this.parts, scope, signal), query: q, session, dialogue })
      : { strategy: strategy.name, query: q, hits: [] };
    const prompt = strategy.compose({ scope, session, partner, dialogue }, recall);
    const at = dialogue.at(-1)?.at ?? session.at;
    const input: ReplyInput = { agent: scope.agent, partner, at, dialogue, recall, prompt };
    const result = await cognition.run(replyStepFor(input), input, { signal });
    const op = newOperation(scope, strategy.name, result.model, session.id, at, {
      type: "REPLY",
      memoryIds: recall.hits.filter((h) => h.kind === "memory").map((h) => h.id),
      inputs: { query: q },
      outputs: { text: result.value.text },
      rationale: result.value.rationale ?? null,
      usage: recall.usage ? addUsage(recall.usage, result.usage) : result.usage,
    });
    await store.write(scope, { operations: [op] });
    this.parts.events.emit("operation", op);
    return { text: result.value.text, recall };
  }

  /** Marks the sessions closed (once their turns and per-turn work settled) and queues their consolidation. */
  async close(targets: TurnTarget[]): Promise<{ job: JobInfo; done: Promise<JobInfo> }[]> {
    for (const t of targets) await this.settled(t.scope, t.session.id);
    await this.parts.store.writeMany(
      targets.map((t) => ({
        scope: t.scope,
        batch: { sessionStatus: [{ id: t.session.id, status: "closed" }] },
      })),
    );
    const jobs = [];
    for (const t of targets)
      jobs.push(
        await this.parts.queue.enqueue({
          kind: "consolidate",
          tenant: t.scope.tenant,
          agent: t.scope.agent,
          sessionId: t.session.id,
        }),
      );
    return jobs;
  }

  /** Failed consolidations and per-turn work that still wait for a retry. */
  async failures(scope: Scope): Promise<Operation[]> {
    const { store } = this.parts;
    const failed = new Set((await store.listSessions(scope, { status: "failed" })).map((s) => s.id));
    return (await store.listOperations(scope, { status: "failed" })).filter(
      (o) =>
        (o.type === "CONSOLIDATE" && o.sessionId !== null && failed.has(o.sessionId)) ||
        (o.type === "TURN" && !this.turns.owes(o.id)),
    );
  }

  /**
   * Runs again, in order, every failed per-turn work of the scope (or of one session), then every
   * failed or interrupted consolidation. Per-turn results are reported as jobs too.
   */
  async retry(
    scope: Scope,
    sessionId?: string,
  ): Promise<{ turns: { op: string; ok: boolean }[]; jobs: JobInfo[] }> {
    const { store } = this.parts;
    const turnOps = (await this.failures(scope))
      .filter((o) => o.type === "TURN" && (!sessionId || o.sessionId === sessionId))
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.recordedAt < b.recordedAt ? -1 : 1));
    const turns: { op: string; ok: boolean }[] = [];
    for (const op of turnOps) turns.push({ op: op.id, ok: await this.turns.retry(scope, op) });
    const sessions = await store.listSessions(scope, { status: ["failed", "closed"] });
    const chosen = sessionId ? sessions.filter((s) => s.id === sessionId) : sessions;
    const jobs: JobInfo[] = [];
    for (const s of chosen)
      jobs.push(
        await (
          await this.parts.queue.enqueue({
            kind: "consolidate",
            tenant: scope.tenant,
            agent: scope.agent,
            sessionId: s.id,
          })
        ).done,
      );
    return { turns, jobs };
  }

  /** Whether a failed TURN record only means "not finished yet" (this process still owes it). */
  isUnfinished(op: Operation): boolean {
    return op.type === "TURN" && op.error === UNFINISHED;
  }
}
