/** A live session: add turns as they happen, let partners join and leave, reply, close to consolidate. */
import { z } from "zod";
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Recall } from "../../core/recall.js";
import type { Scope, Session, Turn } from "../../core/types.js";
import { fieldsOf, refuseUnknownFields } from "../../core/unknown-fields.js";
import { conversationTime, idSchema, parseInput, type TurnInput, turnInputSchema } from "../api.js";
import type { Engine } from "../engine.js";
import type { JobInfo } from "../events.js";
import { checkTurnList } from "../messages/check-turns.js";
import { MAX_MESSAGES } from "../messages/message-schemas.js";
import { MOMENT_OPTIONS_FIELDS } from "../option-fields.js";
import { type PerTurnMode, presentSpeakers, type TurnTarget } from "./turn-path.js";

/** Several turns in one call (`addTurns`, REST's turns route given an array). */
export const turnListSchema = z
  .array(turnInputSchema)
  .min(1, "give at least one turn")
  .max(MAX_MESSAGES, `a call holds at most ${MAX_MESSAGES} turns; send several`);

/** What `turn()` accepts besides speaker and text. */
export type TurnOptions = Omit<TurnInput, "speaker" | "text">;

/** What `reply()` accepts. */
export interface ReplyOptions {
  /** What to recall for, instead of the latest partner turn. */
  query?: string;
  /** Store the reply as the agent's turn (default true); it is marked `meta.generated`. */
  record?: boolean;
  signal?: AbortSignal;
}

/** The fields of `ReplyOptions`, for refusing others. */
export const REPLY_OPTIONS_FIELDS = fieldsOf<ReplyOptions>({ query: true, record: true, signal: true });

/**
 * A live session of one agent: turns as they happen, partners joining and leaving, replies, and
 * `close()` to consolidate. Made by `Memlane.session()` or `resume()`; several handles (in one
 * process or several) may add turns to the same session.
 */
export class SessionHandle {
  private closed = false;

  /** @internal Made by `Memlane.session()` / `resume()`. */
  constructor(
    private readonly engine: Engine,
    readonly scope: Scope,
    private current: Session,
    private readonly perTurn: PerTurnMode,
  ) {}

  /** The session's id. */
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
    const [turn] = await this.engine.addTurn([this.target()], input, input.perTurn ?? this.perTurn);
    return turn!;
  }

  /**
   * Records several utterances in order, as `turn()` does each, after checking them all: a bad
   * one (unknown field, empty text, a speaker not present, a time before the turn before it)
   * stores none of them. Returns the stored turns.
   * @throws {InvalidInputError} a bad turn, `details.field` naming it ("1.speaker"); nothing stored
   * @throws {ConflictError} the session is closed
   */
  async addTurns(turns: TurnInput[]): Promise<Turn[]> {
    this.assertOpen();
    const inputs = parseInput(turnListSchema, turns, "turns");
    const stored = await this.engine.parts.store.getSession(this.scope, this.id);
    if (!stored) throw new InvalidInputError(`No session "${this.id}" for agent "${this.scope.agent}"`);
    if (stored.status !== "open")
      throw new ConflictError(`Session "${this.id}" is ${stored.status}: it takes no more turns`);
    await this.settled();
    checkTurnList(inputs, {
      speakers: presentSpeakers(stored),
      floor: (await this.turns()).at(-1)?.at ?? stored.at,
      maxTurnChars: this.engine.parts.maxTurnChars,
      field: "",
    });
    const added: Turn[] = [];
    for (const { speaker, text, ...options } of inputs) added.push(await this.turn(speaker, text, options));
    return added;
  }

  /** Resolves when every turn added so far, and its background per-turn work, has settled. */
  settled(): Promise<void> {
    return this.engine.settled(this.scope, this.id);
  }

  /**
   * A partner joins the session from now on (a mixed or group conversation).
   * @throws {ConflictError} the partner is already present
   */
  async join(partner: string, options: { at?: string } = {}): Promise<void> {
    this.assertOpen();
    refuseUnknownFields(options, MOMENT_OPTIONS_FIELDS, "join options");
    const who = parseInput(idSchema, partner, "partner");
    if (who === this.scope.agent)
      throw new InvalidInputError("The agent cannot be its own partner", { field: "partner" });
    const at = options.at ? conversationTime(options.at, "at") : new Date().toISOString();
    this.current = await this.engine.updateSession(this.target(), (stored) => joining(stored, who, at));
  }

  /**
   * A partner leaves: their earlier turns stay; they can speak again only after joining again.
   * @throws {InvalidInputError} the partner is not present
   */
  async leave(partner: string, options: { at?: string } = {}): Promise<void> {
    this.assertOpen();
    refuseUnknownFields(options, MOMENT_OPTIONS_FIELDS, "leave options");
    const who = parseInput(idSchema, partner, "partner");
    const at = options.at ? conversationTime(options.at, "at") : new Date().toISOString();
    this.current = await this.engine.updateSession(this.target(), (stored) => leaving(stored, who, at));
  }

  /**
   * The agent's next utterance, grounded in what the strategy recalls for the latest partner
   * turn (or `query`), after the session's per-turn work has settled.
   */
  async reply(options: ReplyOptions = {}): Promise<{ text: string; recall: Recall; turn: Turn | null }> {
    this.assertOpen();
    refuseUnknownFields(options, REPLY_OPTIONS_FIELDS, "reply options");
    const { text, recall } = await this.engine.reply(this.scope, this.current, options.query, options.signal);
    const turn =
      options.record === false
        ? null
        : await this.turn(this.scope.agent, text, { meta: { generated: true } });
    return { text, recall, turn };
  }

  /**
   * Ends the session (after its turns and per-turn work) and queues its consolidation in the
   * background. Await `done` (or the engine's `idle()`) to know it finished. A session with no
   * turns has nothing to consolidate: it ends at once (status `consolidated`), with no job
   * (`job` and `done`'s value are null).
   * @throws {ConflictError} the session is already closed
   */
  async close(): Promise<{ job: JobInfo | null; done: Promise<JobInfo | null> }> {
    this.assertOpen();
    // Closed at once: a turn() called after close() is refused, not slipped in before the close.
    this.closed = true;
    try {
      await this.settled();
      if ((await this.turns()).length === 0) {
        await this.engine.closeEmpty([this.target()]);
        return { job: null, done: Promise.resolve(null) };
      }
      const [job] = await this.engine.close([this.target()]);
      return job!;
    } catch (error) {
      this.closed = false;
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new ConflictError(`Session "${this.id}" is closed`);
  }

  private target(): TurnTarget {
    return { scope: this.scope, session: this.current };
  }
}

/** The session's partners and meta once `who` joins at `at`. */
export function joining(stored: Session, who: string, at: string): Pick<Session, "partners" | "meta"> {
  const left = { ...((stored.meta.left ?? {}) as Record<string, string>) };
  if (stored.partners.includes(who) && !(who in left))
    throw new ConflictError(`"${who}" is already in session "${stored.id}"`, { partner: who });
  delete left[who];
  const joined = { ...((stored.meta.joined ?? {}) as Record<string, string>), [who]: at };
  const partners = stored.partners.includes(who) ? stored.partners : [...stored.partners, who];
  return { partners, meta: { ...stored.meta, joined, left } };
}

/** The session's partners and meta once `who` leaves at `at`. */
export function leaving(stored: Session, who: string, at: string): Pick<Session, "partners" | "meta"> {
  const left = { ...((stored.meta.left ?? {}) as Record<string, string>) };
  if (!stored.partners.includes(who) || who in left)
    throw new InvalidInputError(`"${who}" is not in session "${stored.id}"`, { field: "partner" });
  return { partners: stored.partners, meta: { ...stored.meta, left: { ...left, [who]: at } } };
}
