/**
 * The Strategy port (ARCHITECTURE.md §4): one paper's mechanism for writing, recalling and using
 * memory. Strategies receive ports in their contexts, never adapters. Consolidation stages its
 * writes; the engine applies them, with the session's new status, in one transaction.
 */
import type { Cognition, Prompt } from "../cognition/cognition.js";
import type { Recall } from "../core/recall.js";
import type { MemoryFilter, Operation, Scope, Session, Turn } from "../core/types.js";
import type { Embedder } from "../models/embedder.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { MemoryStore, WriteBatch } from "../store/memory-store.js";

export interface StrategyPorts {
  scope: Scope;
  store: MemoryStore;
  cognition: Cognition;
  embedder: Embedder;
  retriever: Retriever;
}

export interface TurnContext extends StrategyPorts {
  session: Session;
  turn: Turn;
  /** The session so far, this turn included. */
  dialogue: Turn[];
  stage(batch: WriteBatch): void;
}

export interface SessionContext extends StrategyPorts {
  session: Session;
  turns: Turn[];
  /** Queues writes; all staged writes land together when consolidation ends. */
  stage(batch: WriteBatch): void;
  /** A new operation row for this session, filled with scope, strategy, time and ids. */
  operation(fields: Pick<Operation, "type"> & Partial<Operation>): Operation;
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

export interface Strategy {
  readonly name: string;
  /** One line on what this strategy does, for --help and reports. */
  readonly description: string;
  onTurn?(ctx: TurnContext): Promise<void>;
  onSessionEnd?(ctx: SessionContext): Promise<void>;
  recall(ctx: RecallContext): Promise<Recall>;
  compose(ctx: ReplyContext, recall: Recall): Prompt;
}
