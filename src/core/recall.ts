/** What a strategy hands back when asked to remember: scored hits, each explained. */
import type { Memory, Turn } from "./types.js";

export interface RecallHit {
  kind: "memory" | "turn";
  id: string;
  text: string;
  /** Subject of a memory, or the speaker of a turn. */
  about: string;
  score: number;
  /** Conversation time the hit was learned or said. */
  observedAt: string;
  sessionId: string | null;
  sourceTurns: string[];
  /** The score of each signal that ranked this hit ("dense", "bm25", "rrf"…). */
  explanation: Record<string, number>;
  memory?: Memory;
  turn?: Turn;
}

export interface Recall {
  strategy: string;
  query: string;
  hits: RecallHit[];
}
