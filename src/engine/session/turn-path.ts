/**
 * The per-turn path, as solid as session end. A turn is stored with its vector and, for a
 * strategy with `onTurn`, a TURN operation; how the strategy's per-turn work lands depends on the
 * caller's choice:
 *   - "wait": the hook runs first and its writes land with the turn in one transaction. If the
 *     hook fails, or its writes cannot be applied, the turn lands with a failed TURN operation
 *     instead: the turn is never lost.
 *   - "background": the turn lands at once with its TURN operation marked failed ("not finished
 *     yet": a crash leaves a visible, retryable record); the hook runs after, in turn order, and
 *     its writes land with the operation marked done — or the operation keeps the real error.
 * Writes to a session (turns, partners joining or leaving, closing) are serialised per session
 * in this process; across processes a taken turn index is detected and the turn retried at the
 * next one. Per-turn work of one session runs in turn order, retries included.
 */

import { ConflictError, InvalidInputError } from "../../core/errors.js";
import { compositeKey } from "../../core/ids.js";
import type { Operation, Scope, Session, StepFailure, Turn } from "../../core/types.js";
import { embedTurns } from "../../retrieval/turn-embedding-text.js";
import type { EmbeddingRecord, WriteBatch } from "../../store/memory-store.js";
import type { Strategy, TurnContext } from "../../strategies/strategy.js";
import { checkTurnLength, conversationTime } from "../api.js";
import { applyStaged, type StagedWrite } from "../consolidation/apply-staged.js";
import { errorText, failedOperation, failureOutputs, failureUsage, newOperation } from "../operations.js";
import { type EngineParts, portsFor } from "../parts.js";
import { notingFailures, stepFailureOperation } from "../step-failures.js";
import { DialogueCache } from "./dialogue-cache.js";

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

/**
 * Tries to find a free turn index when other processes take the ones we chose (a store that
 * cannot hold a session against other processes, or a hold lost with its connection), each after
 * a short random pause so that two writers do not collide again at once.
 */
const INDEX_TRIES = 12;

interface Prepared {
  target: TurnTarget;
  strategy: Strategy;
  turn: Turn;
  /** The session so far, this turn included. */
  dialogue: Turn[];
}

type HookResult = { ok: true; staged: WriteBatch[] } | { ok: false; error: unknown };

/**
 * The default id names the turn's place (`<session>:<n>`). A suffix is added only when that id is
 * taken already: by a caller's own id in this session, or (a collision at the same place as the
 * last try) by a turn elsewhere in the scope.
 */
function defaultTurnId(
  sessionId: string,
  index: number,
  inSession: (id: string) => boolean,
  before?: Prepared,
): string {
  const plain = `${sessionId}:${index + 1}`;
  const taken = (id: string) => inSession(id) || (before?.turn.index === index && before.turn.id === id);
  let id = plain;
  for (let n = 2; taken(id); n++) id = `${plain}.${n}`;
  return id;
}

export const sessionKey = (scope: Scope, sessionId: string) =>
  compositeKey(scope.tenant, scope.agent, sessionId);

const keyOf = (t: TurnTarget) => sessionKey(t.scope, t.session.id);

export class TurnPath {
  private readonly writeChains = new Map<string, Promise<unknown>>();
  private readonly workChains = new Map<string, Promise<unknown>>();
  /** TURN operations whose work is queued or running in this process. */
  private readonly inFlight = new Set<string>();

  /** Each open session's turns so far, read from the change log's delta at each turn. */
  private readonly dialogues: DialogueCache;

  constructor(private readonly parts: EngineParts) {
    this.dialogues = new DialogueCache(parts.store);
  }

  /** The session's turns so far, from the held copy brought up to date (do not change the list). */
  dialogue(scope: Scope, sessionId: string): Promise<Turn[]> {
    return this.dialogues.turns(scope, sessionId);
  }

  /** True while this process still owes the operation's per-turn work. */
  owes(opId: string): boolean {
    return this.inFlight.has(opId);
  }

  /** Resolves when the session's writes and per-turn work so far have settled. */
  async settled(scope: Scope, sessionId: string): Promise<void> {
    const key = sessionKey(scope, sessionId);
    await this.writeChains.get(key)?.catch(() => undefined);
    await this.workChains.get(key)?.catch(() => undefined);
  }

  /** Resolves when the session's per-turn work so far has settled (safe inside `inOrder`). */
  async workSettled(scope: Scope, sessionId: string): Promise<void> {
    await this.workChains.get(sessionKey(scope, sessionId))?.catch(() => undefined);
  }

  /** Resolves when every session's writes and per-turn work have settled (engine close). */
  async drain(): Promise<void> {
    while (this.writeChains.size || this.workChains.size)
      await Promise.allSettled([...this.writeChains.values(), ...this.workChains.values()]);
  }

  /**
   * Runs `fn` after every earlier write to these sessions, before any later one: how joins,
   * leaves and closes keep their place among turns.
   */
  inOrder<T>(targets: TurnTarget[], fn: () => Promise<T>): Promise<T> {
    return this.chain(this.writeChains, targets.map(keyOf), fn);
  }

  /**
   * Stores one utterance in every target session (one transaction) and runs each target
   * strategy's per-turn work as `mode` says. Returns each target's stored turn, in target order.
   */
  add(targets: TurnTarget[], request: TurnRequest, mode: PerTurnMode): Promise<Turn[]> {
    return this.inOrder(targets, () =>
      this.holding(targets, async () => {
        let before: Prepared[] | undefined;
        for (let attempt = 1; ; attempt++) {
          const prepared = await Promise.all(targets.map((t, i) => this.prepare(t, request, before?.[i])));
          const vectors = await embedTurns(this.parts.embedder, [prepared[0]!.turn]);
          try {
            if (mode === "wait") await this.storeWaiting(prepared, vectors);
            else await this.storeInBackground(prepared, vectors);
            return prepared.map((p) => p.turn);
          } catch (error) {
            if (!(error instanceof ConflictError)) throw error;
            // An id the caller chose that is already stored is a real conflict.
            if (request.id)
              for (const p of prepared)
                if ((await this.parts.store.listTurns(p.target.scope, { ids: [request.id] })).length)
                  throw error;
            if (attempt >= INDEX_TRIES)
              throw new ConflictError(
                `Session "${targets[0]!.session.id}" is being appended to by other writers, and the turn found no free place in ${INDEX_TRIES} tries; nothing was stored: send it again`,
                { session: targets[0]!.session.id },
              );
            // Another writer took the place: the next read of the session shows it.
            before = prepared;
            await new Promise((r) => setTimeout(r, Math.random() * 5 * 2 ** Math.min(attempt, 6)));
          }
        }
      }),
    );
  }

  /**
   * Runs `work` holding the targets' sessions against appends by other processes (where the
   * store can), taken in one order so that two conversations never wait on each other.
   */
  private async holding<T>(targets: TurnTarget[], work: () => Promise<T>): Promise<T> {
    const store = this.parts.store;
    if (!store.holdSession) return work();
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const t of [...targets].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1)))
        releases.push(await store.holdSession(t.scope, t.session.id));
      return await work();
    } finally {
      for (const release of releases.reverse()) await release().catch(() => undefined);
    }
  }

  /**
   * Runs a failed TURN operation's work again, after the session's earlier per-turn work, unless
   * it is owed here already or no longer failed; true when it is done now.
   */
  async retry(scope: Scope, op: Operation): Promise<boolean> {
    if (this.inFlight.has(op.id)) return false;
    const inputs = op.inputs as { turn?: string; session?: string } | null;
    const session = inputs?.session ? await this.parts.store.getSession(scope, inputs.session) : null;
    if (!session || !inputs?.turn) return false;
    this.inFlight.add(op.id);
    return this.chain(this.workChains, [sessionKey(scope, session.id)], async () => {
      const current = await this.parts.store.getOperation(scope, op.id);
      if (current?.status !== "failed") {
        this.inFlight.delete(op.id);
        return current?.status === "done";
      }
      const turns = await this.parts.store.listTurns(scope, { sessionId: session.id });
      const at = turns.findIndex((t) => t.id === inputs.turn);
      if (at < 0) {
        this.inFlight.delete(op.id);
        return false;
      }
      const prepared: Prepared = {
        target: { scope, session },
        strategy: this.parts.strategies.get(session.strategy),
        turn: turns[at]!,
        dialogue: turns.slice(0, at + 1),
      };
      return this.finish(prepared, op.id);
    });
  }

  /** The turn at the session's next place; `before`: this target's previous try, which collided. */
  private async prepare(target: TurnTarget, request: TurnRequest, before?: Prepared): Promise<Prepared> {
    const { scope, session } = target;
    checkTurnLength(request.text, this.parts.maxTurnChars);
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
    const dialogue = await this.dialogues.turns(scope, session.id);
    const last = dialogue.at(-1);
    const floor = last?.at ?? stored.at;
    const at = request.at ? conversationTime(request.at, "at") : floor;
    if (at < floor)
      throw new InvalidInputError(`Turn time ${request.at} is earlier than the turn before it (${floor})`, {
        field: "at",
      });
    const index = last ? last.index + 1 : 0;
    const id =
      request.id ??
      defaultTurnId(session.id, index, (taken) => this.dialogues.hasTurnId(scope, session.id, taken), before);
    const turn: Turn = {
      id,
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

  private async storeWaiting(prepared: Prepared[], vectors: EmbeddingRecord[]): Promise<void> {
    // Per-turn work of these sessions runs in order: earlier background work first.
    await Promise.all(prepared.map((p) => this.workChains.get(keyOf(p.target))?.catch(() => undefined)));
    const results = await Promise.all(prepared.map((p) => (p.strategy.onTurn ? this.runHook(p) : null)));
    const writes: StagedWrite[] = prepared.map((p, i) => {
      const result = results[i];
      const extra: WriteBatch = { turns: [p.turn], embeddings: retarget(vectors, p.turn) };
      if (!result) return { scope: p.target.scope, staged: [], extra };
      extra.operations = [result.ok ? this.turnOperation(p, {}) : this.failedTurnOperation(p, result.error)];
      return { scope: p.target.scope, staged: result.ok ? result.staged : [], extra };
    });
    try {
      await applyStaged(this.parts, writes);
    } catch (error) {
      // The hooks' writes could not land (or the turn itself could not): store the turns alone
      // with the failure. If that fails too, the turn's own write is the problem and the caller
      // (or the index retry) sees it.
      if (!prepared.some((p) => p.strategy.onTurn)) throw error;
      const fallback: StagedWrite[] = prepared.map((p) => ({
        scope: p.target.scope,
        staged: [],
        extra: {
          turns: [p.turn],
          embeddings: retarget(vectors, p.turn),
          operations: p.strategy.onTurn ? [this.failedTurnOperation(p, error)] : [],
        },
      }));
      await applyStaged(this.parts, fallback);
    }
  }

  private async storeInBackground(prepared: Prepared[], vectors: EmbeddingRecord[]): Promise<void> {
    const owed: { p: Prepared; op: Operation }[] = [];
    const entries = prepared.map((p) => {
      const batch: WriteBatch = { turns: [p.turn], embeddings: retarget(vectors, p.turn) };
      if (p.strategy.onTurn) {
        const op = this.turnOperation(p, { status: "failed", error: UNFINISHED });
        owed.push({ p, op });
        batch.operations = [op];
      }
      return { scope: p.target.scope, batch };
    });
    // The pending record is not announced: the event comes when the work has settled.
    await this.parts.store.writeMany(entries);
    for (const { p, op } of owed) {
      this.inFlight.add(op.id);
      this.chain(this.workChains, [keyOf(p.target)], () => this.finish(p, op.id)).catch((error) =>
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
          extra: { requireTurns: [p.turn.id], operationStatus: [{ id: opId, status: "done", error: null }] },
        },
      ]);
      await this.announce(scope, opId);
      return true;
    } catch (error) {
      // The TURN record may be gone (a forget erased its session meanwhile): then nothing is owed.
      if (!(await this.parts.store.getOperation(scope, opId))) return false;
      await this.parts.store.write(scope, {
        operationStatus: [
          {
            id: opId,
            status: "failed",
            error: errorText(error),
            outputs: failureOutputs(error),
            usage: failureUsage(error),
          },
        ],
      });
      await this.announce(scope, opId);
      return false;
    } finally {
      this.inFlight.delete(opId);
    }
  }

  private async announce(scope: Scope, opId: string): Promise<void> {
    const op = await this.parts.store.getOperation(scope, opId);
    if (op) this.parts.events.emit("operation", op);
  }

  private async runHook(p: Prepared): Promise<HookResult> {
    const staged: WriteBatch[] = [];
    const { scope, session } = p.target;
    const failures: StepFailure[] = [];
    const ctx: TurnContext = {
      ...portsFor(this.parts, scope),
      cognition: notingFailures(this.parts.cognition, failures, { fallBack: false }),
      session,
      turn: p.turn,
      dialogue: p.dialogue,
      stage: (batch) => staged.push(batch),
      operation: (fields) =>
        newOperation(scope, p.strategy.name, this.parts.cognition.name, session.id, p.turn.at, fields),
    };
    try {
      await p.strategy.onTurn!(ctx);
      // Items a batched step could not answer land as failed operations `retry` runs again.
      if (failures.length)
        staged.push({
          operations: failures.map((f) =>
            stepFailureOperation(scope, p.strategy.name, session.id, p.turn.at, f),
          ),
        });
      return { ok: true, staged };
    } catch (error) {
      return { ok: false, error };
    }
  }

  private turnOperation(p: Prepared, fields: Partial<Operation>): Operation {
    const { scope, session } = p.target;
    return newOperation(scope, p.strategy.name, this.parts.cognition.name, session.id, p.turn.at, {
      type: "TURN",
      inputs: turnInputs(p),
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
      turnInputs(p),
      error,
    );
  }

  /** Runs `fn` after the chains of every key, and makes it the chains' new tail. */
  private chain<T>(chains: Map<string, Promise<unknown>>, keys: string[], fn: () => Promise<T>): Promise<T> {
    const before = Promise.allSettled(keys.map((k) => chains.get(k) ?? Promise.resolve()));
    const next = before.then(fn);
    for (const k of keys) chains.set(k, next);
    // Forget settled chains, so a long-lived engine does not keep one per session ever seen.
    next
      .catch(() => undefined)
      .then(() => {
        for (const k of keys) if (chains.get(k) === next) chains.delete(k);
      });
    return next;
  }
}

/** What a TURN operation needs to run again. */
function turnInputs(p: Prepared) {
  return { turn: p.turn.id, session: p.target.session.id, strategy: p.strategy.name };
}

/** Who may speak in a session now: the agent and every partner who has not left. */
export function presentSpeakers(session: Session): string[] {
  const left = (session.meta.left ?? {}) as Record<string, string>;
  return [session.agent, ...session.partners.filter((p) => !(p in left))];
}

/** The turn's vector records under this target's turn id (every agent stores the same vector). */
function retarget(vectors: EmbeddingRecord[], turn: Turn): EmbeddingRecord[] {
  return vectors.map((v) => ({ ...v, ownerId: turn.id }));
}
