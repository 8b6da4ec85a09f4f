/**
 * The one-call write: an exchange given whole is stored as one session of the agent with one
 * partner and (by default) closed for consolidation. Every message is checked before anything is
 * stored, so a bad one stores nothing. With an idempotency key the session's id comes from the
 * key, and the store (not this process) remembers it: a retry, after a restart or on another
 * replica, finds the session and answers as the first call did, or finishes what a first call
 * cut short began (keyed-retry.ts).
 */
import { ConflictError, InvalidInputError } from "../../core/errors.js";
import type { Scope, Session, Turn } from "../../core/types.js";
import { embedTurns } from "../../retrieval/turn-embedding-text.js";
import { conversationTime, parseInput } from "../api.js";
import type { JobInfo } from "../events.js";
import { sessionRecord } from "../session/start-session.js";
import { checkTurnList } from "./check-turns.js";
import { answerRetry } from "./keyed-retry.js";
import { storeKeyedTurns } from "./keyed-turns.js";
import { type AddMessagesInput, addMessagesSchema } from "./message-schemas.js";
import {
  type AddMessagesResult,
  type MessagesFacade,
  type MessageTurn,
  type ParsedMessages,
  turnOptions,
} from "./messages-facade.js";
import { keyedSessionId, REQUEST_DIGEST_KEY, requestDigest } from "./request-digest.js";
import { freshLease, holdLease, newHolder, WRITE_LEASE_KEY } from "./write-lease.js";

export type { AddMessagesResult, MessagesFacade } from "./messages-facade.js";
export { REQUEST_DIGEST_KEY } from "./request-digest.js";

type Parsed = ParsedMessages;

/**
 * Stores the messages; see `Memlane.add`.
 * @throws {InvalidInputError} a bad message or field; nothing stored
 * @throws {NotFoundError} `sessionId` is not an open session of the agent
 * @throws {ConflictError} the idempotency key was used for another request or its session holds
 *   other turns; or another call with the key is still storing (`details.retryable`)
 */
export async function addMessages(
  mem: MessagesFacade,
  input: AddMessagesInput,
  maxTurnChars: number,
): Promise<AddMessagesResult> {
  const parsed = parseInput(addMessagesSchema, input, "add");
  const { agent, partner } = parsed;
  const scope = mem.scope(agent);
  refuseCombinations(parsed);
  if (partner === agent)
    throw new InvalidInputError("The agent cannot be its own partner", { field: "partner" });
  const turns: MessageTurn[] = parsed.messages.map((m) => ({
    speaker: m.speaker ?? (m.role === "assistant" ? agent : partner),
    text: (m.content ?? m.text)!,
    ...(m.at === undefined ? {} : { at: m.at }),
    ...(m.meta === undefined ? {} : { meta: m.meta }),
  }));

  const existing = parsed.sessionId ? await mem.resume(agent, parsed.sessionId) : null;
  if (existing && !existing.session.partners.includes(partner))
    throw new InvalidInputError(`"${partner}" is not a partner of session "${existing.id}"`, {
      field: "partner",
    });
  const last = existing ? (await existing.turns()).at(-1) : undefined;
  const dated = turns.findIndex((t) => t.at !== undefined);
  const sessionAt = existing
    ? existing.session.at
    : parsed.at !== undefined
      ? conversationTime(parsed.at, "at")
      : dated >= 0
        ? conversationTime(turns[dated]!.at!, `messages.${dated}.at`)
        : new Date().toISOString();
  const times = checkTurnList(turns, {
    speakers: [agent, partner],
    floor: last?.at ?? sessionAt,
    maxTurnChars,
    field: "messages",
  });

  const digest = requestDigest(parsed);
  const keyed = parsed.idempotencyKey === undefined ? undefined : keyedSessionId(parsed.idempotencyKey);
  // The key's session stored already (by this call's first try, or a call racing it): a retry.
  const retry = async (error?: unknown) => {
    const first = keyed ? await mem.getSession(agent, keyed) : null;
    if (first) return answerRetry(mem, parsed, first, digest, turns, times);
    if (error) throw error;
    return null;
  };
  const again = await retry();
  if (again) return again;
  const id = keyed ?? parsed.id;
  const meta = { ...parsed.meta, ...(keyed ? { [REQUEST_DIGEST_KEY]: digest } : {}) };

  // A new session whose strategy has no per-turn work lands whole, in one transaction.
  if (parsed.infer === false || (!existing && !mem.strategy.onTurn)) {
    const given = parsed.infer === false;
    const whole = await storeWhole(
      mem,
      scope,
      { partner, id, meta, at: sessionAt, status: given ? "consolidated" : "open" },
      turns,
      times,
      keyed ? retry : undefined,
    );
    if (whole.replayed || given || parsed.close === false) return whole;
    try {
      const closed = await mem.closeSession(agent, whole.session.id);
      // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
      closed.done.catch(() => {});
      const session = (await mem.getSession(agent, whole.session.id)) ?? whole.session;
      return { ...whole, session, job: closed.job };
    } catch (error) {
      // The queue refused (BUSY) or failed: the call stores nothing, and a retry starts afresh.
      await mem.forget({ agent, sessionId: whole.session.id }).catch(() => undefined);
      throw error;
    }
  }

  if (keyed) {
    // Turn by turn under a lease, so a retry can tell this call storing from this call dead.
    const holder = newHolder();
    let handle: Awaited<ReturnType<MessagesFacade["session"]>>;
    try {
      handle = await mem.session({
        agent,
        partner,
        at: sessionAt,
        id: keyed,
        meta: { ...meta, [WRITE_LEASE_KEY]: freshLease(holder) },
      });
    } catch (error) {
      // Two calls with one key at once: the second finds the first's session.
      if (error instanceof ConflictError) return (await retry(error))!;
      throw error;
    }
    const lease = await holdLease(mem.store, scope, keyed, holder, { written: true });
    return storeKeyedTurns(mem, parsed, handle, turns, [], lease, false);
  }
  const handle =
    existing ?? (await mem.session({ agent, partner, at: sessionAt, meta, ...(id ? { id } : {}) }));
  const stored: Turn[] = [];
  let job: JobInfo | null = null;
  try {
    for (const t of turns) stored.push(await handle.turn(t.speaker, t.text, turnOptions(t)));
    if (parsed.close !== false) {
      const closed = await handle.close();
      // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
      closed.done.catch(() => {});
      job = closed.job;
    }
  } catch (error) {
    // Checked above, a failure here is the store's or the queue's: a session of its own is
    // erased, so the call stored nothing and a retry starts afresh.
    if (!existing) await mem.forget({ agent, sessionId: handle.id }).catch(() => undefined);
    throw error;
  }
  return {
    session: (await mem.getSession(agent, handle.id)) ?? handle.session,
    turns: stored,
    job,
    replayed: false,
  };
}

function refuseCombinations(parsed: Parsed): void {
  const refuse = (field: string, message: string) => {
    throw new InvalidInputError(message, { field });
  };
  if (parsed.sessionId !== undefined) {
    if (parsed.id !== undefined) refuse("id", "give id (a new session) or sessionId (an open one), not both");
    if (parsed.idempotencyKey !== undefined)
      refuse(
        "idempotencyKey",
        "an idempotency key names a new session of its own; it cannot add to sessionId",
      );
    if (parsed.at !== undefined)
      refuse("at", "at is a new session's time; sessionId names one that has its own");
    if (parsed.meta !== undefined)
      refuse("meta", "meta is a new session's; sessionId names one that has its own");
  }
  if (parsed.idempotencyKey !== undefined && parsed.id !== undefined)
    refuse("id", "with an idempotency key the session's id comes from the key");
  if (parsed.infer === false) {
    if (parsed.sessionId !== undefined)
      refuse("sessionId", "infer: false stores the messages as a session of their own");
    if (parsed.close === false)
      refuse("close", "infer: false has nothing to consolidate: its session is never left open");
  }
}

/**
 * A new session and its turns written in one transaction: open, to be closed next, or (infer:
 * false) marked consolidated at once: no per-turn work, no consolidation, no memory. Such turns
 * are still recalled as turns (`units: "turns"`), listed, exported and forgotten like any others.
 */
async function storeWhole(
  mem: MessagesFacade,
  scope: Scope,
  s: {
    partner: string;
    id?: string;
    meta: Record<string, unknown>;
    at: string;
    status: "open" | "consolidated";
  },
  turns: MessageTurn[],
  times: (string | undefined)[],
  retry: ((error: unknown) => Promise<AddMessagesResult | null>) | undefined,
): Promise<AddMessagesResult> {
  const session: Session = {
    ...sessionRecord(
      scope,
      { agent: scope.agent, partner: s.partner, meta: s.meta, ...(s.id ? { id: s.id } : {}) },
      () => mem.strategy,
      () => s.at,
    ),
    status: s.status,
  };
  let at = s.at;
  const rows: Turn[] = turns.map((t, index) => {
    at = times[index] ?? at;
    return {
      id: `${session.id}:${index + 1}`,
      tenant: scope.tenant,
      agent: scope.agent,
      sessionId: session.id,
      index,
      speaker: t.speaker,
      text: t.text,
      at,
      meta: t.meta ?? {},
    };
  });
  const embeddings = await embedTurns(mem.embedder, rows);
  try {
    await mem.store.write(scope, { sessions: [session], turns: rows, embeddings });
  } catch (error) {
    if (retry && error instanceof ConflictError) return (await retry(error))!;
    throw error;
  }
  return { session, turns: rows, job: null, replayed: false };
}
