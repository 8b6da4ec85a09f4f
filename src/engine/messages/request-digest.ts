/**
 * What an idempotency key stands for in the store: the session's id, each message's turn id, and
 * a digest of the request kept in the session's meta, so that a retry on any replica, after a
 * restart, finds the first call's session and can tell whether it is the same request.
 */
import { createHash } from "node:crypto";
import type { ParsedMessages } from "./messages-facade.js";

/** The session meta key holding a digest of the request that made the session (idempotent retries). */
export const REQUEST_DIGEST_KEY = "memlane.request";

/** The session id an idempotency key stands for: the same on every replica and after a restart. */
export function keyedSessionId(key: string): string {
  return `m-${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
}

/**
 * The id of the turn of message `index` in a keyed session: its place, chosen by the caller, so
 * that two calls storing the same message collide in the store instead of both appending it.
 */
export function keyedTurnId(sessionId: string, index: number): string {
  return `${sessionId}:${index + 1}`;
}

/** What a retry must repeat to be the same request. */
export function requestDigest(parsed: ParsedMessages): string {
  const { idempotencyKey: _, ...request } = parsed;
  return createHash("sha256").update(JSON.stringify(request)).digest("hex");
}
