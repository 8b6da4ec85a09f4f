/**
 * The domain of memlane (docs/architecture.md, "Words"). Plain data, no behaviour: every room below
 * the engine speaks in these shapes. Times are ISO-8601 strings in UTC.
 */

/** Where a read or write happens. There is no read path without tenant and agent. */
export interface Scope {
  tenant: string;
  agent: string;
}

/** A scope narrowed to one subject, partner or session. */
export interface MemoryFilter {
  about?: string | string[];
  sessionId?: string;
  status?: MemoryStatus | MemoryStatus[] | "any";
  strategy?: string;
  kind?: string | string[];
  ids?: string[];
  /**
   * Only memories whose caller data (`attributes.meta`, what `add` and `update` keep) has these
   * values (core/meta-filter.ts).
   */
  meta?: MetaFilter;
  /** Learned at or after this conversation time (ISO-8601 UTC, inclusive). */
  observedAfter?: string;
  /** Learned before this conversation time (exclusive). */
  observedBefore?: string;
  /**
   * Current at some moment at or after this time: never invalidated, or invalidated later. With
   * `validBefore` the same time, what held at that moment (ask `status: "any"` for past versions).
   */
  validAfter?: string;
  /** Current at some moment at or before this time: learned at or before it. */
  validBefore?: string;
  /** Only what these partners may hear (core/audience.ts says what that is). */
  hearing?: Hearing;
}

/** A value a meta filter matches; compared as text, so 42 matches "42" and true matches "true". */
export type MetaScalar = string | number | boolean;

/**
 * Fields of a row's `meta` (the caller's own data) and the values they must hold: one value, or
 * any of several (`{ in: [...] }`). A field that is absent, or holds an object or a list, matches
 * nothing.
 */
export type MetaFilter = Record<string, MetaScalar | { in: MetaScalar[] }>;

/**
 * Whose recall this is. `partner`: what these partners may hear (memories learned in a session
 * one of them was in, their own private ones included). `agent`: the agent's whole memory,
 * except private memories of anyone not listed.
 */
export interface Hearing {
  scope: "partner" | "agent";
  /** The partners present (a session's partners), or the one a recall is about. May be empty under `agent`. */
  partners: string[];
}

export type MemoryStatus = "active" | "superseded" | "forgotten";

export type SessionStatus = "open" | "closed" | "consolidated" | "failed";

export interface Session {
  id: string;
  tenant: string;
  agent: string;
  partners: string[];
  /** Conversation time at which the session started. */
  at: string;
  status: SessionStatus;
  /** Strategy that consolidates (or consolidated) this session. */
  strategy: string;
  meta: Record<string, unknown>;
  recordedAt: string;
}

export interface Turn {
  id: string;
  tenant: string;
  agent: string;
  sessionId: string;
  index: number;
  speaker: string;
  text: string;
  at: string;
  meta: Record<string, unknown>;
}

/**
 * The kind (and strategy) of standing instructions and preferences (engine/standing/standing-memory.ts): listed
 * whole beside every recall, never searched, so search indexes leave them out.
 */
export const STANDING_KIND = "standing";

export interface Memory {
  id: string;
  tenant: string;
  agent: string;
  /** Who the statement is about: the agent itself or a partner. */
  about: string;
  text: string;
  /** What sort of statement: "fact", "summary", "insight", "memo", "event"… strategy defined. */
  kind: string;
  strategy: string;
  /** Conversation time at which the fact was learned. */
  observedAt: string;
  /** System time at which the row was written. */
  recordedAt: string;
  status: MemoryStatus;
  /** Conversation time from which the statement stopped being current. */
  invalidAt: string | null;
  sessionId: string | null;
  sourceTurns: string[];
  attributes: Record<string, unknown>;
}

export type EdgeType =
  | "Supersedes"
  | "FusedInto"
  | "Changed"
  | "Cause"
  | "Reason"
  | "HinderedBy"
  | "React"
  | "Want"
  | "SameTopic"
  | "Link";

export interface Edge {
  id: string;
  tenant: string;
  agent: string;
  /**
   * Source of the link. Supersedes runs from the new memory to the one it replaced; FusedInto
   * from an old memory to the fused one that took its place; relations from older to newer.
   */
  from: string;
  to: string;
  type: EdgeType;
  attributes: Record<string, unknown>;
  recordedAt: string;
}

export type OperationType =
  | "PASS"
  | "REPLACE"
  | "APPEND"
  | "DELETE"
  | "FUSION"
  | "NEW"
  | "REDUNDANT"
  | "UPDATED"
  | "LINK"
  | "FORGET"
  | "SUMMARIZE"
  /** One batch of pairwise decisions (CareCall's operator), with every decision and rationale. */
  | "CLASSIFY"
  | "REPLY"
  /** A statement not kept as a memory: nothing of a fact was left, or it could not stand alone. */
  | "DISCARD"
  /** A whole end-of-session consolidation; recorded only when it fails, so it can be retried. */
  | "CONSOLIDATE"
  /**
   * A strategy's per-turn work on one turn (inputs: turn, session, strategy). Failed while it has
   * not succeeded — including while it waits in the background — so a crash leaves it retryable.
   */
  | "TURN"
  /** The caller corrected an active memory: a new version with their text supersedes it. */
  | "UPDATE"
  /** The caller made a past version current again, retiring what had replaced it. */
  | "RESTORE"
  /** The caller stated a fact, stored as given with no inference. */
  | "ADD"
  /**
   * A thinking step, or one item of a batched one, whose answer could not be used after its
   * retries (always failed): what stood in for it is `outputs.fallback`; with `inputs.input`,
   * `retry` asks the model again.
   */
  | "STEP";

export type OperationStatus = "done" | "failed";

/**
 * A step, or one item of it, whose answer could not be used after the retries, and what stands
 * in its place: kept so the engine can record it and, when `input` is given, run it again.
 */
export interface StepFailure {
  step: string;
  stepVersion: number;
  /** What the value holds instead ("no memo chosen", "pair kept apart"…), from the step's `fallback`. */
  fallback: string;
  /** The part of the input that was not answered, to run again; absent when it cannot be redone. */
  input?: unknown;
  /** The error's code (SCHEMA_MISMATCH, MODEL_TIMEOUT…) and "CODE: message". */
  code: string;
  error: string;
  /** The model's answers that did not fit, when the error kept them. */
  attempts: unknown;
  usage: Usage;
  model: string;
}

export interface Usage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
}

export interface Operation {
  id: string;
  tenant: string;
  agent: string;
  type: OperationType;
  status: OperationStatus;
  strategy: string;
  /** Which cognition did the thinking: "offline", or the chat model's name. */
  model: string;
  sessionId: string | null;
  /** Memories this operation read or wrote; used by history and by forget. */
  memoryIds: string[];
  inputs: unknown;
  /**
   * What the operation produced, shaped by its type. Whatever the type, `outputs.warnings`, when
   * present, lists what a thinking step had to leave out or could not fit in the model's window
   * (`StepWarning[]`).
   */
  outputs: unknown;
  rationale: string | null;
  error: string | null;
  usage: Usage;
  /** Conversation time of the change. */
  at: string;
  recordedAt: string;
}

/**
 * What the LLM cognition engine could not send as asked, because the model's window is too small:
 * items left out of a batched step (each alone over the window), or a prompt sent although the
 * estimate puts it over. Logged as a warning and kept on the step's operation (`outputs.warnings`).
 */
export interface StepWarning {
  /** The step concerned ("summarize", "theanine.link-relations"). */
  step: string;
  /** "left-out": items were not sent; "over-window": a prompt was sent though it may not fit. */
  kind: "left-out" | "over-window";
  /** One sentence for people. */
  message: string;
  /** Items left out (kind "left-out"). */
  items?: number;
  /** The estimated tokens of the largest prompt concerned. */
  promptTokens: number;
  /** The model's window and the part of it kept for the answer, in tokens. */
  contextWindow: number;
  answerTokens: number;
}

/** A statement produced by a summarizer before it becomes a memory. */
export interface Statement {
  about: string;
  text: string;
  sourceTurns: string[];
  observedAt: string;
  attributes?: Record<string, unknown>;
}

export const emptyUsage = (): Usage => ({ calls: 0, promptTokens: 0, completionTokens: 0, latencyMs: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    latencyMs: a.latencyMs + b.latencyMs,
  };
}

/** What `a` spent beyond `b` (a later reading of the same meter), never below zero. */
export function subtractUsage(a: Usage, b: Usage): Usage {
  return {
    calls: Math.max(0, a.calls - b.calls),
    promptTokens: Math.max(0, a.promptTokens - b.promptTokens),
    completionTokens: Math.max(0, a.completionTokens - b.completionTokens),
    latencyMs: Math.max(0, a.latencyMs - b.latencyMs),
  };
}
