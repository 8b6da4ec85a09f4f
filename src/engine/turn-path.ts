/**
 * The per-turn path, as solid as session end. A turn is stored with its vector and, for a
 * strategy with `onTurn`, a TURN operation; how the strategy's per-turn work lands depends on the
 * caller's choice:
 *   - "wait": the hook runs first and its writes land with the turn in one transaction; if the
 *     hook fails, the turn lands with a failed TURN operation instead (the turn is never lost).
 *   - "background": the turn lands at once with its TURN operation marked failed ("not finished
 *     yet": a crash leaves a visible, retryable record); the hook runs after, in turn order, and
 *     its writes land with the operation marked done — or the operation keeps the real error.
 * Writes of one session are serialised (turn indexes never collide in this process; across
 * processes a taken index is detected and the turn retried at the next one), and per-turn work
 * of one session runs in turn order. `retry` runs failed TURN operations again.
 */
import { ConflictError, InvalidInputError } from "../core/errors.js";
import { parseConversationTime } from "../core/time.js";
import type { Operation, Scope, Session, Turn } from "../core/types.js";
import { embedTurns } from "../retrieval/turn-embedding-text.js";
import type { WriteBatch } from "../store/memory-store.js";
import type { Strategy, TurnContext } from "../strategies/strategy.js";
import { applyStaged, type StagedWrite } from "./apply-staged.js";
import { errorText, failedOperation, newOperation } from "./operations.js";
import { type EngineParts, portsFor } from "./parts.js";

export type PerTurnMode = "wait" | "background";

/** One agent's session that a turn is stored in (a conversation between agents has several). */
export interface TurnTarget {
  scope: Scope;
  session: Session;
}

export interface TurnRequest {
  speaker: string;
  text: string;
  at?: string;
  id?: string;
  meta?: Record<string, unknown>;
}

/** Error text of a TURN operation whose work has not finished (yet). */
export const UNFINISHED = "per-turn work has not finished (queued, running, or interrupted by a crash)";

/** Tries to find a free turn index when another process took the one we chose. */
const INDEX_TRIES = 5;

interface Prepared {
  target: TurnTarget;
  strategy: Strategy;
  turn: Turn;
  /** The session so far, this turn included. */
  dialogue: Turn[];
}

export const sessionKey = (scope: Scope, sessionId: string) =>
  `${scope.tenant}\u0000${scope.agent}\u0000${sessionId}`;

export class TurnPath {
  private readonly writeChains = new Map<string, Promise<unknown>>();
  private readonly workChains = new Map<string, Promise<unknown>>();
  /** TURN operations whose work is queued or running in this process. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly parts: EngineParts) {}

  /** True while this process still owes the operation's per-turn work. */
  owes(opId: string): boolean {
    return this.inFlight.has(opId);
  }

  /** Resolves when the session's stored turns and their per-turn work have settled. */
  async settled(key: string): Promise<void> {
    await this.writeChains.get(key)?.catch(() => undefined);
    await this.workChains.get(key)?.catch(() => undefined);
  }

  /**
   * Stores one utterance in every target session (one transaction) and runs each target
   * strategy's per-turn work as `mode` says. Returns each target's stored turn, in target order.
   */
  add(targets: TurnTarget[], request: TurnRequest, mode: PerTurnMode): Promise<Turn[]> {
    const key = sessionKey(targets[0]!.scope, targets[0]!.session.id);
    return this.chain(this.writeChains, key, async () => {
      for (let attempt = 1; ; attempt++) {
        const prepared = await Promise.all(targets.map((t) => this.prepare(t, request)));
        try {
          if (mode === "wait") await this.storeWaiting(key, prepared);
          else await this.storeInBackground(key, prepared);
          return prepared.map((p) => p.turn);
        } catch (error) {
          if (!(error instanceof ConflictError) || attempt >= INDEX_TRIES) throw error;
          // Another writer took the index (and with it the default id): try the next one. An id
          // the caller chose that is already stored is a real conflict.
          if (request.id)
            for (const p of prepared) {
              const same = await this.parts.store.listTurns(p.target.scope, { ids: [request.id] });
              if (same.length) throw error;
            }
        }
      }
    });
  }

  /** Runs a failed TURN operation's work again; true when it succeeded this time. */
  async retry(scope: Scope, op: Operation): Promise<boolean> {
    const inputs = op.inputs as { turn?: string; session?: string } | null;
    const session = inputs?.session ? await this.parts.store.getSession(scope, inputs.session) : null;
    if (!session || !inputs?.turn) return false;
    const turns = await this.parts.store.listTurns(scope, { sessionId: session.id });
    const at = turns.findIndex((t) => t.id === inputs.turn);
    if (at < 0) return false;
    const prepared: Prepared = {
      target: { scope, session },
      strategy: this.parts.strategies.get(session.strategy),
      turn: turns[at]!,
      dialogue: turns.slice(0, at + 1),
    };
    return this.finish(prepared, op.id);
  }

  private async prepare(target: TurnTarget, request: TurnRequest): Promise<Prepared> {
    const { scope, session } = target;
    const stored = await this.parts.store.getSession(scope, session.id);
    if (!stored) throw new InvalidInputError(`No session "${session.id}" for agent "${scope.agent}"`);
    if (stored.status !== "open")
      throw new ConflictError(`Session "${session.id}" is ${stored.status}: it takes no more turns`, {
        session: session.id,
      });
    const present = presentSpeakers(stored);
    if (!present.includes(request.speaker))
      throw new InvalidInputError(
        `Unknown speaker "${request.speaker}" in session "${session.id}"; expected one of ${present.join(", ")}`,
        { field: "speaker" },
      );
    const dialogue = await this.parts.store.listTurns(scope, { sessionId: session.id });
    const last = dialogue.at(-1);
    const floor = last?.at ?? stored.at;
    const at = request.at ? parseConversationTime(request.at) : floor;
    if (at < floor)
      throw new InvalidInputError(`Turn time ${request.at} is earlier than the turn before it (${floor})`, {
        field: "at",
      });
    const index = last ? last.index + 1 : 0;
    const turn: Turn = {
      id: request.id ?? `${session.id}:${index + 1}`,
      tenant: scope.tenant,
      agent: scope.agent,
      sessionId: session.id,
      index,
      speaker: request.speaker,
      text: request.text,
      at,
      meta: request.meta ?? {},
    };
    return {
      target: { scope, session: stored },
      strategy: this.parts.strategies.get(stored.strategy),
      turn,
      dialogue: [...dialogue, turn],
    };
  }

  private async storeWaiting(key: string, prepared: Prepared[]): Promise<void> {
    // Per-turn work of this session runs in order: earlier background work first.
    await this.workChains.get(key)?.catch(() => undefined);
    const vectors = await embedTurns(this.parts.embedder, [prepared[0]!.turn]);
    const writes: StagedWrite[] = [];
    for (const p of prepared) {
      const extra: WriteBatch = { turns: [p.turn], embeddings: retarget(vectors, p.turn) };
      if (!p.strategy.onTurn) {
        writes.push({ scope: p.target.scope, staged: [], extra });
        continue;
      }
      const result = await this.runHook(p);
      const op = result.ok ? this.turnOperation(p, {}) : this.failedTurnOperation(p, result.error);
      writes.push({
        scope: p.target.scope,
        staged: result.ok ? result.staged : [],
        extra: { ...extra, operations: [op] },
      });
    }
    await applyStaged(this.parts, writes);
  }

  private async storeInBackground(key: string, prepared: Prepared[]): Promise<void> {
    const vectors = await embedTurns(this.parts.embedder, [prepared[0]!.turn]);
    const owed: { p: Prepared; op: Operation }[] = [];
    const writes: StagedWrite[] = prepared.map((p) => {
      const extra: WriteBatch = { turns: [p.turn], embeddings: retarget(vectors, p.turn) };
      if (p.strategy.onTurn) {
        const op = this.turnOperation(p, { status: "failed", error: UNFINISHED });
        owed.push({ p, op });
        extra.operations = [op];
      }
      return { scope: p.target.scope, staged: [], extra };
    });
    // The pending record is not announced: the event comes when the work has settled.
    await this.parts.store.writeMany(writes.map((w) => ({ scope: w.scope, batch: w.extra! })));
    for (const { p, op } of owed) {
      this.inFlight.add(op.id);
      this.chain(this.workChains, key, () => this.finish(p, op.id)).catch((error) =>
        this.parts.logger.error(`per-turn work of turn ${p.turn.id} could not be recorded`, { error }),
      );
    }
  }

  /** Runs the hook for a stored turn and lands its writes with its TURN operation marked done. */
  private async finish(p: Prepared, opId: string): Promise<boolean> {
    const { scope } = p.target;
    try {
      const result = await this.runHook(p);
      if (!result.ok) throw result.error;
      await applyStaged(this.parts, [
        {
          scope,
          staged: result.staged,
          extra: { operationStatus: [{ id: opId, status: "done", error: null }] },
        },
      ]);
      return true;
    } catch (error) {
      await this.parts.store.write(scope, {
        operationStatus: [{ id: opId, status: "failed", error: errorText(error) }],
      });
      const op = await this.parts.store.getOperation(scope, opId);
      if (op) this.parts.events.emit("operation", op);
      return false;
    } finally {
      this.inFlight.delete(opId);
    }
  }

  private async runHook(
    p: Prepared,
  ): Promise<{ ok: true; staged: WriteBatch[] } | { ok: false; error: unknown }> {
    const staged: WriteBatch[] = [];
    const { scope, session } = p.target;
    const ctx: TurnContext = {
      ...portsFor(this.parts, scope),
      session,
      turn: p.turn,
      dialogue: p.dialogue,
      stage: (batch) => staged.push(batch),
      operation: (fields) =>
        newOperation(scope, p.strategy.name, this.parts.cognition.name, session.id, p.turn.at, fields),
    };
    try {
      await p.strategy.onTurn!(ctx);
      return { ok: true, staged };
    } catch (error) {
      return { ok: false, error };
    }
  }

  private turnOperation(p: Prepared, fields: Partial<Operation>): Operation {
    const { scope, session } = p.target;
    return newOperation(scope, p.strategy.name, this.parts.cognition.name, session.id, p.turn.at, {
      type: "TURN",
      inputs: { turn: p.turn.id, session: session.id, strategy: p.strategy.name },
      ...fields,
    });
  }

  private failedTurnOperation(p: Prepared, error: unknown): Operation {
    const { scope, session } = p.target;
    return failedOperation(
      scope,
      "TURN",
      p.strategy.name,
      this.parts.cognition.name,
      session.id,
      p.turn.at,
      { turn: p.turn.id, session: session.id, strategy: p.strategy.name },
      error,
    );
  }

  private chain<T>(chains: Map<string, Promise<unknown>>, key: string, fn: () => Promise<T>): Promise<T> {
    const before = chains.get(key) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(fn);
    chains.set(key, next);
    // Forget settled chains, so a long-lived engine does not keep one per session ever seen.
    next
      .catch(() => undefined)
      .then(() => {
        if (chains.get(key) === next) chains.delete(key);
      });
    return next;
  }
}

/** Who may speak in a session now: the agent and every partner who has not left. */
export function presentSpeakers(session: Session): string[] {
  const left = (session.meta.left ?? {}) as Record<string, string>;
  return [session.agent, ...session.partners.filter((p) => !(p in left))];
}

/** The turn's vector records under this target's turn id (every agent stores the same vector). */
function retarget(
  vectors: { ownerKind: "turn" | "memory"; ownerId: string; model: string; vector: Float32Array }[],
  turn: Turn,
) {
  return vectors.map((v) => ({ ...v, ownerId: turn.id }));
}
