/**
 * What one engine is made of, shared by every tenant view of it (`mem.tenant(t)`): the ports it
 * was opened with and the in-process state around them. Internal: users hold `Memlane`.
 */
import type { Cognition } from "../cognition/cognition.js";
import type { Scope } from "../core/types.js";
import type { ChatModel } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import type { ScopeCaches } from "../retrieval/engine-caches.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { MemoryStore } from "../store/memory-store.js";
import type { StrategyRegistry } from "../strategies/registry.js";
import type { Strategy, StrategyPorts } from "../strategies/strategy.js";
import type { JobQueue } from "./consolidation/job-queue.js";
import type { EventStream } from "./events.js";
import type { Logger } from "./logger.js";
import type { ReplyWindow } from "./reply/reply-window.js";

export interface EngineParts {
  store: MemoryStore;
  /** The caches strategies read through their ports (graphs, held memories), this engine's own. */
  caches: ScopeCaches;
  cognition: Cognition;
  embedder: Embedder;
  retriever: Retriever;
  queue: JobQueue;
  events: EventStream;
  logger: Logger;
  chat: ChatModel | null;
  strategies: StrategyRegistry;
  /** The strategy new sessions and recall use unless told otherwise. */
  strategy: Strategy;
  /** Most characters one turn may hold (checked at every way in: turns, conversations, ingest). */
  maxTurnChars: number;
  /** How much of the session a reply sees (the newest turns). */
  replyWindow: ReplyWindow;
  /** Whether strategies that keep memory also keep standing instructions and preferences. */
  standing: boolean;
  /** Consolidation jobs one tenant may have waiting or running; a close past it is refused. */
  maxPendingJobs: number;
}

export function portsFor(parts: EngineParts, scope: Scope, signal?: AbortSignal): StrategyPorts {
  return {
    scope,
    store: parts.store,
    caches: parts.caches,
    cognition: parts.cognition,
    embedder: parts.embedder,
    retriever: parts.retriever,
    signal,
  };
}
