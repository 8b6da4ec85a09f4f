/**
 * "Remember this": utterances (or one fact the partner told) stored in one call, as a new session
 * or added to an open one, closed for consolidation unless asked not to. What the MCP `remember`
 * tool and the AI SDK tools and middleware share; the one-call write (`mem.add({ messages })`)
 * does the work, so a bad turn stores nothing.
 */
import type { Memlane } from "./memlane.js";
import type { MessageInput } from "./messages/message-schemas.js";

export interface RememberInput {
  agent: string;
  partner: string;
  /**
   * Utterances, oldest first: `{ speaker, text }` (the agent or the partner) or OpenAI-style
   * `{ role: "user" | "assistant", content }`.
   */
  turns?: MessageInput[];
  /** One thing the partner said or told about themselves; stored as the partner's turn. */
  fact?: string;
  /** An open session to add to; default a new one. */
  sessionId?: string;
  /** When the session took place (new sessions); default now. */
  at?: string;
  /** Close the session so it is consolidated (default true). */
  close?: boolean;
  /** false: keep the turns as given and infer nothing from them (see `Memlane.add`). */
  infer?: boolean;
  /** A retried call with the same key stores nothing twice (new sessions only). */
  idempotencyKey?: string;
  /** The caller's own data, kept with a new session. */
  meta?: Record<string, unknown>;
}

export interface RememberResult {
  sessionId: string;
  turns: string[];
  closed: boolean;
  /** The consolidation job, when closed and known to this process. */
  job?: string;
  /** True when this answers a retry whose first call stored everything. */
  replayed?: boolean;
}

/**
 * Stores the turns, then (by default) closes the session and queues its consolidation; a bad
 * turn stores nothing.
 * @throws {NotFoundError} `sessionId` is not an open session of the agent
 * @throws {InvalidInputError} a speaker who is neither agent nor partner, empty text, no turn
 */
export async function remember(mem: Memlane, input: RememberInput): Promise<RememberResult> {
  const { turns = [], fact, sessionId, at, ...rest } = input;
  const result = await mem.add({
    ...rest,
    messages: [...turns, ...(fact === undefined ? [] : [{ speaker: input.partner, text: fact }])],
    // A session added to keeps its own time.
    ...(sessionId === undefined ? (at === undefined ? {} : { at }) : { sessionId }),
  });
  return {
    sessionId: result.session.id,
    turns: result.turns.map((t) => t.id),
    closed: result.session.status !== "open",
    ...(result.job ? { job: result.job.id } : {}),
    ...(result.replayed ? { replayed: true } : {}),
  };
}
