/** A live session: add turns as they happen, ask for a reply, close to consolidate. */
import { ConflictError, InvalidInputError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { parseConversationTime } from "../core/time.js";
import type { Scope, Session, Turn } from "../core/types.js";
import type { JobInfo } from "./events.js";

/** What a session handle needs from the engine; kept narrow so the handle stays small. */
export interface SessionHost {
  writeTurn(scope: Scope, turn: Turn): Promise<void>;
  afterTurn(scope: Scope, session: Session, turn: Turn, dialogue: Turn[]): Promise<void>;
  reply(
    scope: Scope,
    session: Session,
    dialogue: Turn[],
    query?: string,
  ): Promise<{ text: string; recall: Recall }>;
  closeSession(scope: Scope, session: Session): Promise<{ job: JobInfo; done: Promise<JobInfo> }>;
}

export interface TurnOptions {
  /** Conversation time of the turn; default: the previous turn's, or the session's. */
  at?: string;
  id?: string;
  meta?: Record<string, unknown>;
}

export class SessionHandle {
  private readonly turnList: Turn[];
  private closed = false;

  constructor(
    private readonly host: SessionHost,
    readonly scope: Scope,
    readonly session: Session,
    turns: Turn[] = [],
  ) {
    this.turnList = [...turns];
  }

  get id(): string {
    return this.session.id;
  }

  get turns(): readonly Turn[] {
    return this.turnList;
  }

  /** Records one utterance. The speaker must be the agent or one of the session's partners. */
  async turn(speaker: string, text: string, options: TurnOptions = {}): Promise<Turn> {
    if (this.closed) throw new ConflictError(`Session "${this.id}" is closed`);
    const speakers = [this.scope.agent, ...this.session.partners];
    if (!speakers.includes(speaker))
      throw new InvalidInputError(
        `Unknown speaker "${speaker}" in session "${this.id}"; expected one of ${speakers.join(", ")}`,
      );
    if (!text.trim()) throw new InvalidInputError("A turn needs some text");
    const last = this.turnList.at(-1);
    const at = options.at ? parseConversationTime(options.at) : (last?.at ?? this.session.at);
    if (at < (last?.at ?? this.session.at))
      throw new InvalidInputError(
        `Turn time ${options.at} is earlier than the turn before it (${last?.at ?? this.session.at})`,
      );
    const index = this.turnList.length;
    const turn: Turn = {
      id: options.id ?? `${this.id}:${index + 1}`,
      tenant: this.scope.tenant,
      agent: this.scope.agent,
      sessionId: this.id,
      index,
      speaker,
      text,
      at,
      meta: options.meta ?? {},
    };
    await this.host.writeTurn(this.scope, turn);
    this.turnList.push(turn);
    await this.host.afterTurn(this.scope, this.session, turn, [...this.turnList]);
    return turn;
  }

  /**
   * The agent's next utterance, grounded in what the strategy recalls for the latest partner
   * turn (or `query`). Recorded as the agent's turn unless `record` is false.
   */
  async reply(
    options: { query?: string; record?: boolean } = {},
  ): Promise<{ text: string; recall: Recall; turn: Turn | null }> {
    if (this.closed) throw new ConflictError(`Session "${this.id}" is closed`);
    const { text, recall } = await this.host.reply(
      this.scope,
      this.session,
      [...this.turnList],
      options.query,
    );
    const turn = options.record === false ? null : await this.turn(this.scope.agent, text);
    return { text, recall, turn };
  }

  /**
   * Ends the session and queues its consolidation in the background. Await `done` (or the
   * engine's `idle()`) to know it finished.
   */
  async close(): Promise<{ job: JobInfo; done: Promise<JobInfo> }> {
    if (this.closed) throw new ConflictError(`Session "${this.id}" is already closed`);
    if (this.turnList.length === 0)
      throw new InvalidInputError(`Session "${this.id}" has no turns to remember`);
    this.closed = true;
    return this.host.closeSession(this.scope, this.session);
  }
}
