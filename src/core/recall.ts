/** What a strategy hands back when asked to remember: scored hits, each explained. */
import type { Memory, StepFailure, Turn, Usage } from "./types.js";

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
  /**
   * Memory hits only: `current` for what holds now, `past` for a version something later replaced
   * or closed. Turns have no status.
   */
  status?: VersionStatus;
  /**
   * Memory hits of a question about history (see `temporalIntent`): every version of the fact,
   * oldest first, when it has more than one.
   */
  chain?: VersionEntry[];
  memory?: Memory;
  turn?: Turn;
  /**
   * Turn hits of a long turn only (one indexed as passages): which passage matched, its place in
   * the turn's text (`start` to `end`) and its number (`index` of `of`). `text` is then the passage.
   */
  passage?: { start: number; end: number; index: number; of: number };
}

export type VersionStatus = "current" | "past";

/** One version of a fact in a hit's chain. */
export interface VersionEntry {
  id: string;
  text: string;
  observedAt: string;
  /** When a later version replaced or closed it. */
  invalidAt?: string;
  status: VersionStatus;
  /** Ids of the versions in the chain that directly replaced or closed it. */
  replacedBy?: string[];
}

/** How a memory reads on its own: active is current, anything superseded is past. */
export function memoryStatus(memory: Memory): VersionStatus {
  return memory.status === "active" ? "current" : "past";
}

/** Signal values rounded for people and JSON (4 decimals; the score 5), so hits read cleanly. */
function rounded(explanation: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(explanation))
    out[name] = Number(value.toFixed(name === "score" ? 5 : 4));
  return out;
}

/** A raw turn as a hit; `explanation.score` is its score. */
export function turnHit(turn: Turn, explanation: Record<string, number>): RecallHit {
  return {
    kind: "turn",
    id: turn.id,
    text: turn.text,
    about: turn.speaker,
    score: explanation.score ?? 0,
    observedAt: turn.at,
    sessionId: turn.sessionId,
    sourceTurns: [turn.id],
    explanation: rounded(explanation),
    turn,
  };
}

/** A memory as a hit, carrying its source turns; `explanation.score` is its score. */
export function memoryHit(memory: Memory, explanation: Record<string, number>): RecallHit {
  return {
    kind: "memory",
    id: memory.id,
    text: memory.text,
    about: memory.about,
    score: explanation.score ?? 0,
    observedAt: memory.observedAt,
    sessionId: memory.sessionId,
    sourceTurns: memory.sourceTurns,
    explanation: rounded(explanation),
    status: memoryStatus(memory),
    memory,
  };
}

/** One step of a memory timeline: a memory, and how the previous step led to it. */
export interface TimelineEntry {
  id: string;
  text: string;
  at: string;
  /** Relation of the edge from the previous entry; null for the first. */
  relation: string | null;
  /** Whether the memory holds now; absent when not known. */
  status?: VersionStatus;
  /** When a past memory stopped holding. */
  invalidAt?: string;
}

/** A memory timeline through a retrieved memory (Theanine), and its refinement for this talk. */
export interface RecallTimeline {
  through: string;
  entries: TimelineEntry[];
  /** The timeline rewritten for the current conversation; absent when not refined. */
  refined?: string[];
}

export interface Recall {
  strategy: string;
  query: string;
  hits: RecallHit[];
  timelines?: RecallTimeline[];
  /** Set when the question asked about history: an earlier state (`past`) or one that may have ended (`still`). */
  temporal?: "past" | "still";
  /** What recall itself cost (timeline refinement calls a model). */
  usage?: Usage;
  /**
   * What the reply should know about the conversation itself, one line each: who everyone is
   * and which session this is (EMMA's reply is told both).
   */
  setting?: string[];
  /**
   * Standing instructions and preferences of the people asked about, newest first: added by the
   * engine to every recall and reply of a strategy that keeps memory (engine/standing/standing-memory.ts).
   */
  standing?: RecallHit[];
  /**
   * Whose memories the recall saw: `partner`, what the partners in question may hear; `agent`,
   * the agent's whole memory, private memories excepted (core/audience.ts).
   */
  scope?: "partner" | "agent";
  /**
   * Steps of the recall whose answer could not be used (a chooser that never fit, a refinement
   * that never came), each with what stood in for it; a reply records them as failed operations.
   */
  failures?: StepFailure[];
}
