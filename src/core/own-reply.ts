/**
 * Whose words a generated turn is. A reply memlane wrote for an agent (`meta.generated`) is that
 * agent's own reply in the agent's memory: there, only what the agent says about itself and what
 * it promises is remembered, never what it recalls or repeats of others (a reply quotes memory,
 * and a quote is not a new fact). In every other agent's copy of a conversation the same turn is
 * a partner's words, remembered like anyone's.
 */
import type { Turn } from "./types.js";

/** True when `turn` is a reply memlane generated for `agent` itself. */
export function isOwnReply(turn: Pick<Turn, "speaker" | "meta">, agent: string): boolean {
  return turn.meta?.generated === true && turn.speaker === agent;
}
