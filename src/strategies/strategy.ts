/**
 * The Strategy port, version 1 (docs/architecture.md, "Ports and their versions"): one paper's mechanism for writing, recalling
 * and using memory. Strategies receive ports in their contexts, never adapters, and never write
 * to the store themselves: they stage batches, and the engine applies everything a hook staged —
 * with the turn (per turn) or the session's new status (session end), and the new memories'
 * embeddings — in one transaction, or records the hook's failure as a failed operation.
 */

import type { Cognition } from "../cognition/cognition.js";
import type { Prompt } from "../cognition/inputs.js";
import { UnsupportedError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { checkSpecification, definePort } from "../core/specification.js";
import type { MemoryFilter, Operation, Scope, Session, Turn } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { ScopeCaches } from "../retrieval/engine-caches.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { MemoryStore, WriteBatch } from "../store/memory-store.js";

export interface StrategyPorts {
  scope: Scope;
  /** For reads; writes are staged (see StrategyContext.stage). */
  store: MemoryStore;
  /**
   * The engine's caches over the store, kept current from its change log: the memory graph and
   * a strategy's memories of one kind. Read them instead of the store for what every reply walks.
   */
  caches: ScopeCaches;
  cognition: Cognition;
  embedder: Embedder;
  retriever: Retriever;
  /** Aborted when the caller gives up (a request that timed out). */
  signal?: AbortSignal;
}

/** What both writing hooks get: the session, and the way to stage writes and operations. */
export interface StrategyContext extends StrategyPorts {
  session: Session;
  /** Queues writes; everything staged lands together when the hook returns, or nothing does. */
  stage(batch: WriteBatch): void;
  /** A new operation row for this session, filled with scope, strategy, time and ids. */
  operation(fields: Pick<Operation, "type"> & Partial<Operation>): Operation;
}

export interface TurnContext extends StrategyContext {
  /**
   * The turn just said. With per-turn mode "wait" it is not in the store yet while the hook runs
   * (it lands with the hook's writes); in the background and on retry it is stored already.
   */
  turn: Turn;
  /** The session so far, this turn included, oldest first. */
  dialogue: Turn[];
}

export interface SessionContext extends StrategyContext {
  turns: Turn[];
}

export interface RecallContext extends StrategyPorts {
  query: string;
  /** How many hits the caller wants; absent: the strategy's own default (the paper's k). */
  k?: number;
  filter?: MemoryFilter;
  /** The session being replied in, if any: strategies may exclude it from recall. */
  session?: Session;
  /**
   * The conversation's present, against which "last month" in the query is read; default the
   * session's time, else the newest memory's.
   */
  now?: string;
  dialogue?: Turn[];
}

export interface ReplyContext {
  scope: Scope;
  session: Session;
  partner: string;
  dialogue: Turn[];
}

/** A step item that had taken its fallback, answered when `retry` asked again. */
export interface RetriedStep {
  step: string;
  /** The item's input, as the failed operation kept it. */
  input: unknown;
  /** The step's value for it now. */
  value: unknown;
}

export interface Strategy {
  /** The port's version; the engine refuses any other. */
  readonly specificationVersion: typeof STRATEGY_SPECIFICATION.version;
  readonly name: string;
  /** One line on what this strategy does, for --help and reports. */
  readonly description: string;
  /**
   * Whose memories its recall sees when the caller names no scope: "partner" (absent: what the
   * partners present may hear) or "agent" (the agent's whole memory, private memories excepted;
   * EMMA's, whose point is recall across partners).
   */
  readonly recallScope?: "partner" | "agent";
  /**
   * Whether its sessions keep each partner's standing instructions and preferences and show them
   * to every reply and recall (one more model call per session). Absent: the engine's `standing`
   * option decides. Strategies that keep no memory keep none either way.
   */
  readonly standing?: boolean;
  /** Runs after every turn (CREEM blends, MemoChat writes memos); see TurnContext. */
  onTurn?(ctx: TurnContext): Promise<void>;
  /** Runs when a closed session is consolidated (CareCall, Theanine, EMMA). */
  onSessionEnd?(ctx: SessionContext): Promise<void>;
  /**
   * Stages what a late answer changes: a step item that took its fallback in this strategy's
   * session was answered on `retry`. Without it, the answer is only recorded on the operation.
   */
  onRetried?(ctx: SessionContext, answered: RetriedStep): Promise<void>;
  recall(ctx: RecallContext): Promise<Recall>;
  compose(ctx: ReplyContext, recall: Recall): Prompt;
}

/** The standing-instructions option every memory strategy's factory takes. */
export interface StandingOption {
  /** Keep standing instructions in this strategy's sessions (absent: the engine's `standing` option). */
  standing?: boolean;
}

/** A factory's `standing` option as the strategy's field (nothing when not given). */
export function standingSetting(options: StandingOption): { standing?: boolean } {
  return options.standing === undefined ? {} : { standing: options.standing };
}

export function checkStrategy(strategy: Strategy): Strategy {
  checkSpecification(strategy, STRATEGY_SPECIFICATION, `Strategy "${strategy?.name}"`);
  if (!strategy.name?.trim()) throw new UnsupportedError("A strategy needs a name", { port: "Strategy" });
  return strategy;
}

/** The Strategy port's specification: the version its implementations declare, the methods they have. */
export const STRATEGY_SPECIFICATION = definePort("Strategy", "v1", ["recall", "compose"]);
