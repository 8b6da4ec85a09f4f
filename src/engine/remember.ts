/**
 * "Remember this": utterances (or one fact the partner told) into a new or open session, closed
 * for consolidation unless asked not to. What the MCP `remember` tool and the AI SDK tools and
 * middleware share.
 */
import type { Memlane } from "./memlane.js";

export interface RememberInput {
  agent: string;
  partner: string;
  /** Utterances, oldest first; each speaker is the agent or the partner. */
  turns?: { speaker: string; text: string; at?: string; meta?: Record<string, unknown> }[];
  /** One thing the partner said or told about themselves; stored as the partner's turn. */
  fact?: string;
  /** An open session to add to; default a new one. */
  sessionId?: string;
  /** When the session took place (new sessions); default now. */
  at?: string;
  /** Close the session so it is consolidated (default true). */
  close?: boolean;
}

export interface RememberResult {
  sessionId: string;
  turns: string[];
  closed: boolean;
  /** The consolidation job, when closed. */
  job?: string;
}

/**
 * Stores the turns, then (by default) closes the session and queues its consolidation.
 * @throws {NotFoundError} `sessionId` is not an open session of the agent
 * @throws {InvalidInputError} a speaker who is neither agent nor partner, empty text
 */
export async function remember(mem: Memlane, input: RememberInput): Promise<RememberResult> {
  const session = input.sessionId
    ? await mem.resume(input.agent, input.sessionId)
    : await mem.session({ agent: input.agent, partner: input.partner, at: input.at });
  const turns = [
    ...(input.turns ?? []),
    ...(input.fact ? [{ speaker: input.partner, text: input.fact }] : []),
  ];
  const stored: string[] = [];
  for (const t of turns) {
    const options = {
      ...("at" in t && t.at ? { at: t.at } : {}),
      ...("meta" in t && t.meta ? { meta: t.meta } : {}),
    };
    stored.push((await session.turn(t.speaker, t.text, options)).id);
  }
  if (input.close === false) return { sessionId: session.id, turns: stored, closed: false };
  const { job, done } = await session.close();
  // The outcome is the job's; a failed consolidation is recorded for retry, not thrown here.
  done.catch(() => {});
  // No turns: the session ended with nothing to consolidate, and no job.
  return { sessionId: session.id, turns: stored, closed: true, ...(job ? { job: job.id } : {}) };
}
