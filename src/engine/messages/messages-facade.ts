/** What a one-call write uses of the facade, and what it answers. */
import type { Scope, Session, Turn } from "../../core/types.js";
import type { Embedder } from "../../models/embedder.js";
import type { ForgetReport, MemoryStore, TurnFilter } from "../../store/memory-store.js";
import type { Strategy } from "../../strategies/strategy.js";
import type { ForgetInput, SessionInput } from "../api.js";
import type { JobInfo } from "../events.js";
import type { SessionHandle } from "../session/session-handle.js";
import type { ListedTurn } from "./check-turns.js";
import type { addMessagesSchema } from "./message-schemas.js";

/** What a one-call write stored. */
export interface AddMessagesResult {
  /** The session, as stored once the call ended (closed, consolidated or, with close: false, open). */
  session: Session;
  /** Its turns, one per message, in order. */
  turns: Turn[];
  /** The consolidation job queued for the session, when this process knows it; null otherwise. */
  job: JobInfo | null;
  /**
   * True when this answer is a retry's: the first call with the key stored everything, or was
   * cut short and this retry stored the rest.
   */
  replayed: boolean;
}

/** The request as parsed. */
export type ParsedMessages = ReturnType<typeof addMessagesSchema.parse>;

/** One message as the turn it becomes. */
export type MessageTurn = ListedTurn & { meta?: Record<string, unknown> };

/** What the one-call write uses of the facade (a Memlane: named here so the two do not import each other). */
export interface MessagesFacade {
  readonly strategy: Strategy;
  readonly embedder: Embedder;
  readonly store: MemoryStore;
  scope(agent: string): Scope;
  session(options: SessionInput): Promise<SessionHandle>;
  resume(agent: string, sessionId: string): Promise<SessionHandle>;
  getSession(agent: string, sessionId: string): Promise<Session | null>;
  turns(agent: string, filter?: TurnFilter): Promise<Turn[]>;
  closeSession(
    agent: string,
    sessionId: string,
  ): Promise<{ job: JobInfo | null; done: Promise<JobInfo | null> }>;
  forget(options: ForgetInput): Promise<ForgetReport>;
  jobs(): JobInfo[];
}

/** The options `turn()` takes for a message. */
export function turnOptions(t: { at?: string; meta?: Record<string, unknown> }) {
  return { ...(t.at === undefined ? {} : { at: t.at }), ...(t.meta === undefined ? {} : { meta: t.meta }) };
}
