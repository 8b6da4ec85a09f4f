/**
 * A keyed one-call write stored turn by turn, from where its session stands: each message through
 * the per-turn path (so the strategy's per-turn work runs for it, as for a turn said live), under
 * the place id the key gives it, then the close. The first call and a retry that resumes it both
 * store this way, so of two storing the same message the store takes one: the other ends with a
 * retryable ConflictError and appends nothing. A failure of the store or the queue part-way leaves
 * what is stored, for a retry with the key to finish.
 */
import { ConflictError } from "../../core/errors.js";
import type { Turn } from "../../core/types.js";
import type { JobInfo } from "../events.js";
import type { SessionHandle } from "../session/session-handle.js";
import {
  type AddMessagesResult,
  type MessagesFacade,
  type MessageTurn,
  type ParsedMessages,
  turnOptions,
} from "./messages-facade.js";
import { keyedTurnId } from "./request-digest.js";
import type { HeldLease } from "./write-lease.js";

/** Seconds a client is told to wait before sending a call whose key another call is storing. */
export const STILL_STORING_RETRY_SECONDS = 2;

/**
 * Stores `messages` after the `stored` ones into the handle's session, closes it unless
 * `close: false`, and ends the lease whatever happens.
 * @throws {ConflictError} another call with the key stored a message first (retryable)
 */
export async function storeKeyedTurns(
  mem: MessagesFacade,
  parsed: ParsedMessages,
  handle: SessionHandle,
  messages: MessageTurn[],
  stored: Turn[],
  lease: HeldLease,
  replayed: boolean,
): Promise<AddMessagesResult> {
  const turns = [...stored];
  let job: JobInfo | null = null;
  try {
    for (let i = turns.length; i < messages.length; i++) {
      const m = messages[i]!;
      turns.push(await handle.turn(m.speaker, m.text, { ...turnOptions(m), id: keyedTurnId(handle.id, i) }));
    }
    if (parsed.close !== false) {
      const closed = await handle.close();
      // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
      closed.done.catch(() => {});
      job = closed.job;
    }
  } catch (error) {
    // A taken place or a session closed under us: another call with the key is at work.
    if (error instanceof ConflictError) throw stillStoring(handle.id, turns.length, messages.length, error);
    throw error;
  } finally {
    await lease.end();
  }
  const session = (await mem.getSession(parsed.agent, handle.id)) ?? handle.session;
  return { session, turns, job, replayed };
}

/** The retryable refusal of a call whose key another live call is storing. */
export function stillStoring(
  sessionId: string,
  stored: number,
  total: number,
  cause?: unknown,
): ConflictError {
  return new ConflictError(
    `Another call with this idempotency key is storing its messages (${stored} of ${total} stored); send the call again shortly and it finishes or replays that one`,
    {
      field: "idempotencyKey",
      sessionId,
      stored,
      retryable: true,
      retryAfterSeconds: STILL_STORING_RETRY_SECONDS,
    },
    cause,
  );
}
