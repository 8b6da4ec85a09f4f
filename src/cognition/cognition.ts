/**
 * The Cognition port: one method per thinking step the strategies need. Two engines implement
 * it: `llm/` (our prompts, structured output) and `offline/` (heuristics over embeddings and
 * NLP). Each method says what it cost, so operations can carry tokens and latency.
 */
import type { PairLabelWithFusion } from "../core/memory-update.js";
import type { Recall, TimelineEntry } from "../core/recall.js";
import type { RelationOrNone } from "../core/relations.js";
import type { Statement, Turn, Usage } from "../core/types.js";
import type { ChatMessage } from "../models/chat-model.js";

export interface CognitionResult<T> {
  value: T;
  usage: Usage;
  /** "offline" or the chat model that answered. */
  model: string;
  rationale?: string;
}

export interface SummarizeInput {
  agent: string;
  partners: string[];
  sessionId: string;
  /** Conversation time of the session. */
  at: string;
  turns: Turn[];
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

/** One (memory, summary) pair to classify, both about the same subject. */
export interface SentencePair {
  memory: string;
  summary: string;
}

export interface PairDecision {
  label: PairLabelWithFusion;
  rationale: string;
}

export interface ClassifyPairsInput {
  /** The subject both sentences are about (a display name helps the model). */
  about: string;
  pairs: SentencePair[];
  /** Allow FUSION answers; when false the operator picks among the paper's four labels. */
  fusion?: boolean;
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
}

export interface Cognition {
  /** "offline" or the chat model's name. */
  readonly name: string;
  /** A session into short statements about each speaker, from the agent's point of view. */
  summarize(input: SummarizeInput): Promise<CognitionResult<Statement[]>>;
  /** CareCall's pairwise operator O(m, s), for many pairs at once, one decision per pair in order. */
  classifyPairs(input: ClassifyPairsInput): Promise<CognitionResult<PairDecision[]>>;
  /** One sentence that keeps what both say (the FUSION case). */
  fuse(input: { about: string; memory: string; summary: string }): Promise<CognitionResult<string>>;
  /** Theanine's relation-aware linking: a relation (or None) for each older -> newer pair, in order. */
  linkRelations(input: { about: string; pairs: MemoryPair[] }): Promise<CognitionResult<RelationDecision[]>>;
  /** Theanine's context-aware refinement: a timeline rewritten as lines useful for this conversation. */
  refineTimeline(input: RefineInput): Promise<CognitionResult<string[]>>;
  /** The agent's next utterance. */
  reply(input: ReplyInput): Promise<CognitionResult<string>>;
}
