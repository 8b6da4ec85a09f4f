/**
 * The shapes that the thinking steps and the offline toolbox share: a session to summarize, the
 * prompt a reply is written from, pair decisions. Steps (in the strategy folders) validate these
 * with zod; the offline methods (offline/) consume them; neither room imports the other's code.
 */
import type { PairLabelWithFusion } from "../core/memory-update.js";
import type { Recall, TimelineEntry } from "../core/recall.js";
import type { RelationOrNone } from "../core/relations.js";
import type { Turn } from "../core/types.js";
import type { ChatMessage } from "../models/chat-model.js";

export interface SummarizeInput {
  agent: string;
  partners: string[];
  sessionId: string;
  /** Conversation time of the session. */
  at: string;
  turns: Turn[];
}

/** One session read for standing instructions and preferences (step `standing`). */
export interface StandingInput {
  agent: string;
  partners: string[];
  /** Conversation time of the session. */
  at: string;
  turns: Turn[];
  /** The standing instructions and preferences in force before this session, oldest first. */
  standing: { id: string; about: string; text: string; at: string }[];
}

/** What a partner asked for once, to hold from now on, or took back. */
export interface StandingDecision {
  /** A new one (instruction or preference), or one taken back without a replacement. */
  kind: "instruction" | "preference" | "revoke";
  /** Who gave it. */
  about: string;
  /** The instruction or preference as it should be followed (for a revoke: what is taken back). */
  text: string;
  /** The turn it was said in. */
  turn: string;
  /** The id of the standing item (from the input, or made earlier in this session) it replaces or takes back. */
  replaces: string | null;
}

/** What the reply step is shown: built by a strategy's `compose`. */
export interface Prompt {
  /** Instructions and the memory context, as one system message. */
  system: string;
  /** The recent dialogue, partner turns as user and the agent's as assistant. */
  messages: ChatMessage[];
  /** Ask the model to reason first (a rationale, kept in the operation log), then reply. */
  reasoning?: boolean;
}

export interface ReplyInput {
  agent: string;
  partner: string;
  at: string;
  dialogue: Turn[];
  recall: Recall;
  prompt: Prompt;
}

/** The reply step's value: what the agent says, and the reasoning behind it when it was asked for. */
export interface ReplyValue {
  text: string;
  rationale?: string;
}

/** One (memory, summary) pair to classify, both about the same subject. */
export interface SentencePair {
  memory: string;
  summary: string;
  /** Conversation times of the two, when known: the operator is told which is older. */
  memoryAt?: string;
  summaryAt?: string;
  /** The stored memory's id: not shown to the model; kept so a pair answered later can be applied. */
  memoryId?: string;
}

export interface PairDecision {
  label: PairLabelWithFusion;
  rationale: string;
  /**
   * The obvious rule that decided the pair before any operator (cognition/offline/update-rules.ts),
   * when one did: "same" keeps the memory and adds the statement's turns to its evidence.
   */
  rule?: "same" | "stop" | "change" | "addition";
}

/** An older and a newer memory, with their conversation times. */
export interface MemoryPair {
  older: { text: string; at: string };
  newer: { text: string; at: string };
}

export interface RelationDecision {
  relation: RelationOrNone;
  rationale: string;
}

export interface RefineInput {
  /** The current conversation, most recent last. */
  dialogue: string;
  timeline: TimelineEntry[];
  /** The retrieved memory the timeline runs through. */
  through?: string;
  /** When the current conversation takes place, so the timeline's dates can be read against it. */
  at?: string;
}
