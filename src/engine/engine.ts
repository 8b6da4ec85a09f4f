/**
 * The engine behind every tenant view: the parts, the per-turn path, the consolidation queue,
 * and the internal operations that session handles, conversations and the facade share (reply,
 * session updates, close, retry, failures). Internal: users hold `Memlane` (memlane.ts), which
 * validates input and scopes calls.
 */
import type { ReplyInput } from "../cognition/inputs.js";
import { ConflictError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { addUsage, type Operation, type Scope, type Session, type Turn } from "../core/types.js";
import { consolidate } from "./consolidation/consolidator.js";
import type { JobInfo } from "./events.js";
import { newOperation } from "./operations.js";
import { type EngineParts, portsFor } from "./parts.js";
import { heardOnly, sessionHearing } from "./privacy/hearing.js";
import { replyStepFor } from "./reply/reply-step.js";
import { replyWindowOf } from "./reply/reply-window.js";
import { type PerTurnMode, TurnPath, type TurnRequest, type TurnTarget } from "./session/turn-path.js";
import { keepsStanding, withStanding, withStandingShown } from "./standing/standing-memory.js";

export interface ReplyResult {
  text: string;
  recall: Recall;
}

export class Engine {
  readonly turns: TurnPath;
  private closed = false;

  constructor(readonly parts: EngineParts) {
    this.turns = new TurnPath(parts);
    parts.queue.process(
      async (job) => (await consolidate(parts, { tenant: job.tenant, agent: job.agent }, job.sessionId)).ok,
      (job) => parts.events.emit("job", job),
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

  /**
   * The agent's next utterance, grounded in what the session's strategy recalls for the latest
   * partner turn (or `query`). Waits for the session's per-turn work first, so the reply sees it.
   */
  async reply(scope: Scope, session: Session, query?: string, signal?: AbortSignal): Promise<ReplyResult> {
    this.assertOpen();
    await this.settled(scope, session.id);
    const { store, cognition } = this.parts;
    // The held copy, brought up to date from the change log: a reply late in a long session
    // costs what one early in it does; the reply sees the newest turns only (`replyWindow`).
    const dialogue = replyWindowOf(await this.turns.dialogue(scope, session.id), this.parts.replyWindow);
    const lastPartnerTurn = dialogue.findLast((t) => t.speaker !== scope.agent);
    const partner = lastPartnerTurn?.speaker ?? session.partners[0]!;
    const q = query ?? lastPartnerTurn?.text ?? "";
    const strategy = this.parts.strategies.get(session.strategy);
    // What the partners present may hear, and nothing another partner said (engine/privacy/hearing.ts).
    const hearing = sessionHearing(session, strategy);
    const found = q.trim()
      ? await strategy.recall({
          ...portsFor(this.parts, scope, signal),
          query: q,
          session,
          dialogue,
          filter: { hearing },
        })
      : { strategy: strategy.name, query: q, hits: [] };
    // Everyone's standing instructions hold in a reply, whatever the question was.
    const withItems = keepsStanding(this.parts, strategy)
      ? await withStanding(this.parts, scope, found, session.partners, hearing)
      : found;
    const recall = { ...(await heardOnly(store, scope, withItems, hearing)), scope: hearing.scope };
    const prompt = withStandingShown(strategy.compose({ scope, session, partner, dialogue }, recall), recall);
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

  /**
   * Marks the sessions closed — after every earlier turn and its per-turn work — and queues their
   * consolidation.
   */
  async close(targets: TurnTarget[]): Promise<{ job: JobInfo; done: Promise<JobInfo> }[]> {
    this.assertOpen();
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

  private enqueue(scope: Scope, sessionId: string) {
    return this.parts.queue.enqueue({
      kind: "consolidate",
      tenant: scope.tenant,
      agent: scope.agent,
      sessionId,
    });
  }

  /** Failed consolidations and per-turn work that still wait for a retry (not work this process still owes). */
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
   * Runs again every failed per-turn work of the scope (or of one session), in turn order, then
   * every failed or interrupted consolidation that is not queued already.
   */
  async retry(
    scope: Scope,
    sessionId?: string,
    options: { open?: boolean } = {},
  ): Promise<{ turns: { op: string; ok: boolean }[]; jobs: JobInfo[] }> {
    this.assertOpen();
    const { store } = this.parts;
    // Open sessions left behind (a killed chat, a crashed server) are closed first when asked:
    // by naming the session, or with `open` for all of them.
    const open = (await store.listSessions(scope, { status: "open" })).filter((s) =>
      sessionId === undefined ? options.open : s.id === sessionId,
    );
    const closing: Promise<JobInfo>[] = [];
    for (const s of open)
      if ((await store.listTurns(scope, { sessionId: s.id })).length > 0)
        for (const j of await this.close([{ scope, session: s }])) closing.push(j.done);
    const turnOps = (await this.failures(scope)).filter(
      (o) => o.type === "TURN" && (sessionId === undefined || o.sessionId === sessionId),
    );
    const order = await this.turnOrder(scope, turnOps);
    turnOps.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const turns: { op: string; ok: boolean }[] = [];
    for (const op of turnOps) turns.push({ op: op.id, ok: await this.turns.retry(scope, op) });
    const queued = this.queuedSessions(scope);
    const sessions = (await store.listSessions(scope, { status: ["failed", "closed"] })).filter(
      (s) => (sessionId === undefined || s.id === sessionId) && !queued.has(s.id),
    );
    const jobs: JobInfo[] = await Promise.all(closing);
    for (const s of sessions) jobs.push(await (await this.enqueue(scope, s.id)).done);
    return { turns, jobs };
  }

  /**
   * Sessions whose turns have not reached memory yet: open ones holding turns (still talking, or
   * left behind by a killed process) and closed ones no job is consolidating (a process that died
   * mid-consolidation). `retry` finishes them.
   */
  async waiting(scope: Scope): Promise<{ session: Session; turns: number }[]> {
    const { store } = this.parts;
    const queued = this.queuedSessions(scope);
    const out: { session: Session; turns: number }[] = [];
    for (const s of await store.listSessions(scope, { status: ["open", "closed"] })) {
      if (s.status === "closed" && queued.has(s.id)) continue;
      const turns = (await store.listTurns(scope, { sessionId: s.id })).length;
      if (turns > 0) out.push({ session: s, turns });
    }
    return out;
  }

  private queuedSessions(scope: Scope): Set<string> {
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

  /** The place of each TURN operation's turn: session time, then turn index. */
  private async turnOrder(scope: Scope, ops: Operation[]): Promise<Map<string, number>> {
    const order = new Map<string, number>();
    const sessions = [...new Set(ops.map((o) => o.sessionId!))];
    const places = new Map<string, number>();
    let place = 0;
    for (const s of (await this.parts.store.listSessions(scope)).filter((x) => sessions.includes(x.id)))
      for (const t of await this.parts.store.listTurns(scope, { sessionId: s.id })) places.set(t.id, place++);
    for (const o of ops) order.set(o.id, places.get((o.inputs as { turn?: string })?.turn ?? "") ?? place);
    return order;
  }

  /** Waits for every write, per-turn work and consolidation, then refuses new work. */
  async shutdown(): Promise<void> {
    await this.turns.drain();
    await this.parts.queue.idle();
    this.closed = true;
    await this.turns.drain();
  }
}
