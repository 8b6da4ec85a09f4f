/**
 * A retry of a keyed one-call write: the key's session is in the store already. The same request
 * is answered as the first call was; one that found the first call cut short (a killed process,
 * a failure of the store part-way) stores the messages still missing and closes, as the first
 * would have. Which of the two a short session is, a call still storing or one that died, the
 * session's write lease says (write-lease.ts).
 */
import { ConflictError } from "../../core/errors.js";
import type { Session, Turn } from "../../core/types.js";
import type { JobInfo } from "../events.js";
import { stillStoring, storeKeyedTurns } from "./keyed-turns.js";
import type { AddMessagesResult, MessagesFacade, MessageTurn, ParsedMessages } from "./messages-facade.js";
import { REQUEST_DIGEST_KEY } from "./request-digest.js";
import { holdLease, leaseLive, newHolder } from "./write-lease.js";

/**
 * Answers a retry of the request whose key made `first`.
 * @param times each message's checked time, or undefined (it takes the turn before's)
 * @throws {ConflictError} another request used the key; the stored turns are not the request's
 *   first messages; a live call is still storing (retryable); a closed session is short
 */
export async function answerRetry(
  mem: MessagesFacade,
  parsed: ParsedMessages,
  first: Session,
  digest: string,
  messages: MessageTurn[],
  times: (string | undefined)[],
): Promise<AddMessagesResult> {
  if (first.meta[REQUEST_DIGEST_KEY] !== digest)
    throw new ConflictError(
      "This idempotency key was used for another request; use a new key for a new write",
      { field: "idempotencyKey", sessionId: first.id },
    );
  const { agent } = parsed;
  const stored = await mem.turns(agent, { sessionId: first.id });
  checkStoredPrefix(first, stored, messages, times);
  if (stored.length < messages.length) {
    if (first.status !== "open")
      throw new ConflictError(
        `The first call with this idempotency key was cut short after ${stored.length} of ${messages.length} messages, and its session is ${first.status}; forget session "${first.id}" to send it again`,
        { field: "idempotencyKey", sessionId: first.id, stored: stored.length },
      );
    if (leaseLive(first)) throw stillStoring(first.id, stored.length, messages.length);
    return resume(mem, parsed, first, messages, stored);
  }
  let session = first;
  let job: JobInfo | null = null;
  if (first.status === "open" && parsed.close !== false) {
    // Every turn is stored: a live first call is about to close; a dead one never will.
    if (leaseLive(first)) throw stillStoring(first.id, stored.length, messages.length);
    // The lapsed lease is taken, so the close ends it as the first call's would have.
    const lease = await holdLease(mem.store, mem.scope(agent), first.id, newHolder());
    try {
      const closed = await mem.closeSession(agent, first.id);
      closed.done.catch(() => {});
      job = closed.job;
    } catch (error) {
      // Closed meanwhile by another retry: that close stands.
      if (!(error instanceof ConflictError)) throw error;
    } finally {
      await lease.end();
    }
    session = (await mem.getSession(agent, first.id)) ?? first;
  }
  job ??= mem.jobs().findLast((j) => j.agent === agent && j.sessionId === first.id) ?? null;
  return { session, turns: stored, job, replayed: true };
}

/** Takes the lapsed lease and stores the messages the first call did not. */
async function resume(
  mem: MessagesFacade,
  parsed: ParsedMessages,
  first: Session,
  messages: MessageTurn[],
  stored: Turn[],
): Promise<AddMessagesResult> {
  const lease = await holdLease(mem.store, mem.scope(parsed.agent), first.id, newHolder());
  let handle: Awaited<ReturnType<MessagesFacade["resume"]>>;
  try {
    handle = await mem.resume(parsed.agent, first.id);
  } catch (error) {
    await lease.end();
    // Closed since it was read: another retry finished it.
    if (error instanceof ConflictError) throw stillStoring(first.id, stored.length, messages.length, error);
    throw error;
  }
  return storeKeyedTurns(mem, parsed, handle, messages, stored, lease, true);
}

/**
 * Refuses a session whose turns are not the request's first messages, in order (speaker, text
 * and time): the key's session was added to some other way, and finishing it would store a
 * conversation nobody sent.
 */
function checkStoredPrefix(
  first: Session,
  stored: Turn[],
  messages: MessageTurn[],
  times: (string | undefined)[],
): void {
  let at = first.at;
  const differs = (turn: Turn, i: number) => {
    const m = messages[i];
    if (!m) return true;
    at = times[i] ?? at;
    return turn.index !== i || turn.speaker !== m.speaker || turn.text !== m.text || !sameTime(turn.at, at);
  };
  const bad = stored.findIndex(differs);
  if (bad >= 0)
    throw new ConflictError(
      `Session "${first.id}" of this idempotency key holds a turn ${bad} that is not message ${bad} of this request (speaker, text and time must match); forget the session to send the call again`,
      { field: "idempotencyKey", sessionId: first.id, turn: bad },
    );
}

/** One moment, however the store spelled it back. */
function sameTime(a: string, b: string): boolean {
  return a === b || Date.parse(a) === Date.parse(b);
}
