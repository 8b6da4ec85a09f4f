/** A live session: add turns as they happen, let partners join and leave, reply, close to consolidate. */
import { ConflictError, InvalidInputError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { parseConversationTime } from "../core/time.js";
import type { Scope, Session, Turn } from "../core/types.js";
import { idSchema, parseInput, type TurnInput, turnInputSchema } from "./api.js";
import type { Engine } from "./engine.js";
import type { JobInfo } from "./events.js";
import type { PerTurnMode } from "./turn-path.js";

/** What `turn()` accepts besides speaker and text. */
export type TurnOptions = Omit<TurnInput, "speaker" | "text">;

export class SessionHandle {
  private closed = false;

  /** @internal Made by `Memlane.session()` / `resume()`. */
  constructor(
    private readonly engine: Engine,
    readonly scope: Scope,
    private current: Session,
    private readonly perTurn: PerTurnMode,
  ) {}

  get id(): string {
    return this.current.id;
  }

  /** The session as last stored by this handle (partners who joined included). */
  get session(): Session {
    return this.current;
  }

  /** The session's turns so far, oldest first, as stored. */
  turns(): Promise<Turn[]> {
    return this.engine.parts.store.listTurns(this.scope, { sessionId: this.id });
  }

  /**
   * Records one utterance; the speaker must be the agent or a partner present in the session.
   * With `perTurn: "wait"` (the default) it returns once the strategy's per-turn work has landed
   * with the turn; with "background", once the turn is stored (see `settled()`). A per-turn
   * failure never loses the turn: it is stored with a failed TURN operation that `retry` runs again.
   * @throws {InvalidInputError} unknown speaker, empty text, a time before the previous turn's
   * @throws {ConflictError} the session is closed, or the turn id is taken
   */
  async turn(speaker: string, text: string, options: TurnOptions = {}): Promise<Turn> {
    this.assertOpen();
    const input = parseInput(turnInputSchema, { ...options, speaker, text }, "turn");
    const [turn] = await this.engine.addTurn(
      [{ scope: this.scope, session: this.current }],
      input,
      input.perTurn ?? this.perTurn,
    );
    return turn!;
  }

  /** Resolves when every turn added so far, and its background per-turn work, has settled. */
  settled(): Promise<void> {
    return this.engine.settled(this.scope, this.id);
  }

  /** A partner joins the session from now on (a mixed or group conversation). */
  async join(partner: string, options: { at?: string } = {}): Promise<void> {
    this.assertOpen();
    const who = parseInput(idSchema, partner, "partner");
    if (who === this.scope.agent) throw new InvalidInputError("The agent cannot be its own partner");
    const left = { ...((this.current.meta.left ?? {}) as Record<string, string>) };
    if (this.current.partners.includes(who) && !(who in left))
      throw new ConflictError(`"${who}" is already in session "${this.id}"`, { partner: who });
    delete left[who];
    const joined = { ...((this.current.meta.joined ?? {}) as Record<string, string>) };
    joined[who] = options.at ? parseConversationTime(options.at) : new Date().toISOString();
    const partners = this.current.partners.includes(who)
      ? this.current.partners
      : [...this.current.partners, who];
    await this.update(partners, { ...this.current.meta, joined, left });
  }

  /** A partner leaves: their earlier turns stay; they can speak again only after joining again. */
  async leave(partner: string, options: { at?: string } = {}): Promise<void> {
    this.assertOpen();
    const left = { ...((this.current.meta.left ?? {}) as Record<string, string>) };
    if (!this.current.partners.includes(partner) || partner in left)
      throw new InvalidInputError(`"${partner}" is not in session "${this.id}"`, { field: "partner" });
    left[partner] = options.at ? parseConversationTime(options.at) : new Date().toISOString();
    await this.update(this.current.partners, { ...this.current.meta, left });
  }

  /**
   * The agent's next utterance, grounded in what the strategy recalls for the latest partner
   * turn (or `query`). Recorded as the agent's turn unless `record` is false.
   */
  async reply(
    options: { query?: string; record?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ text: string; recall: Recall; turn: Turn | null }> {
    this.assertOpen();
    const { text, recall } = await this.engine.reply(this.scope, this.current, options.query, options.signal);
    const turn =
      options.record === false
        ? null
        : await this.turn(this.scope.agent, text, { meta: { generated: true } });
    return { text, recall, turn };
  }

  /**
   * Ends the session and queues its consolidation in the background. Await `done` (or the
   * engine's `idle()`) to know it finished.
   */
  async close(): Promise<{ job: JobInfo; done: Promise<JobInfo> }> {
    this.assertOpen();
    await this.settled();
    if ((await this.turns()).length === 0)
      throw new InvalidInputError(`Session "${this.id}" has no turns to remember`);
    this.closed = true;
    const [job] = await this.engine.close([{ scope: this.scope, session: this.current }]);
    return job!;
  }

  private assertOpen(): void {
    if (this.closed) throw new ConflictError(`Session "${this.id}" is closed`);
  }

  private async update(partners: string[], meta: Record<string, unknown>): Promise<void> {
    await this.engine.parts.store.write(this.scope, { sessionUpdates: [{ id: this.id, partners, meta }] });
    this.current = { ...this.current, partners, meta };
  }
}
