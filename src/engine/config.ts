/**
 * What `openMemlane` accepts, and how strings in it become adapters. This is the one place that
 * knows adapters: strategies and cognition only ever see ports.
 */

import { z } from "zod";
import { type Cognition, checkCognition } from "../cognition/cognition.js";
import { LlmCognition } from "../cognition/llm/llm-cognition.js";
import { OfflineCognition } from "../cognition/offline/offline-cognition.js";
import { InvalidInputError } from "../core/errors.js";
import { checkReplicaShare, isHome, type ReplicaShare } from "../core/replica-share.js";
import { checkSpecification } from "../core/specification.js";
import type { Scope } from "../core/types.js";
import { fieldsOf, refuseUnknownFields } from "../core/unknown-fields.js";
import type { ChatModel } from "../models/chat-model.js";
import { CHAT_MODEL_SPECIFICATION } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import { EMBEDDER_SPECIFICATION } from "../models/embedder.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { GgufChatModel } from "../models/llama-cpp.js";
import {
  OpenAICompatibleChatModel,
  type OpenAICompatibleConfig,
  OpenAICompatibleEmbedder,
} from "../models/openai-compatible.js";
import { UniversalSentenceEncoder } from "../models/use-embedder.js";
import type { RetrieverOptions } from "../retrieval/in-process-retriever.js";
import { DEFAULT_INDEX_BUDGET } from "../retrieval/index-cache.js";
import { PgvectorRetriever } from "../retrieval/pgvector-retriever.js";
import type { Retriever } from "../retrieval/retriever.js";
import type { MemoryStore } from "../store/memory-store.js";
import { MEMORY_STORE_SPECIFICATION } from "../store/memory-store.js";
import { loadPostgresAdapter } from "../store/postgres-adapter.js";
import { type PostgresSettings, postgresSettings, splitConnections } from "../store/postgres-settings.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { isPostgresSpec, isPostgresUrl } from "../store/store-spec.js";
import type { Strategy } from "../strategies/strategy.js";
import { parseInput } from "./api.js";
import {
  checkJobQueue,
  InProcessJobQueue,
  type InProcessQueueOptions,
  type JobQueue,
} from "./consolidation/job-queue.js";
import type { PostgresQueueOptions } from "./consolidation/queue-options.js";
import { consoleLogger, type Logger } from "./logger.js";
import type { ReplyWindow } from "./reply/reply-window.js";
import type { PerTurnMode } from "./session/turn-path.js";

export type ChatConfig =
  | ChatModel
  | OpenAICompatibleConfig
  | { gguf: string; threads?: number; contextSize?: number; timeoutMs?: number };
/**
 * Where consolidation jobs wait: a JobQueue, "in-process" (the default) or its options
 * (`{ concurrency?, perTenant? }`: jobs at once, and of one tenant at once), "postgres" (the
 * Postgres queue in the store's own `postgres://` database), a `postgres://` URL of another
 * database, or `{ postgres: "postgres" | url, work?, concurrency?, jobTimeoutSeconds?, … }`
 * (`work: false` only enqueues: API replicas whose workers run elsewhere).
 */
export type QueueConfig =
  | JobQueue
  | "in-process"
  | InProcessQueueOptions
  | "postgres"
  | `postgres://${string}`
  | `postgresql://${string}`
  | ({ postgres: string } & Omit<PostgresQueueOptions, "url">);

export type EmbedderConfig = Embedder | "use" | "hash" | (OpenAICompatibleConfig & { dimensions?: number });

export interface MemlaneConfig {
  /**
   * "sqlite:./memlane.db", a file path, ":memory:", "postgres://…", "pglite:<dir>" or
   * "pglite:memory", or a MemoryStore. Default "./memlane.db".
   */
  store?: string | MemoryStore;
  /**
   * Memory vector search on a Postgres store: "auto" (default) uses pgvector's HNSW index where
   * the extension can be had (0.5 or newer; below 0.8, a filtered search that finds too few ends
   * in an exact scan), "exact" always searches exactly in this process. Other stores ignore it.
   */
  vectorSearch?: "auto" | "exact";
  /**
   * On a Postgres server: the `statement_timeout` and `lock_timeout` of every connection (30 s and
   * 5 s by default; a write that finds its row or table locked elsewhere fails STORE_UNAVAILABLE
   * instead of hanging) and the connections this process opens at most over all its pools (20),
   * split among the store and the Postgres queue. Other stores ignore it.
   */
  postgres?: PostgresSettings;
  /** The default strategy: a name ("carecall", "theanine", "accumulate"…) or an instance. Default "carecall". */
  strategy?: string | Strategy;
  /**
   * Your own strategies, found by name by sessions that use them (also after a restart, by
   * `retry`): `openMemlane({ strategies: [myStrategy()], strategy: "mine" })`.
   */
  strategies?: Strategy[];
  /** The tenant this instance works in; `mem.tenant(t)` gives views of others. Default "default". */
  tenant?: string;
  /** A chat model for LLM cognition and replies: an OpenAI-compatible endpoint or a GGUF file. */
  chat?: ChatConfig;
  /** "offline", "llm" (needs `chat`), or a Cognition. Default: "llm" when `chat` is set. */
  cognition?: "offline" | "llm" | Cognition;
  /** "use" (bundled sentence encoder, default), "hash" (test double), an endpoint, or an Embedder. */
  embedder?: EmbedderConfig;
  /** Tries after the first when a model's answer does not fit its schema. Default 2. */
  retries?: number;
  /** How session.turn() treats the strategy's per-turn work: "wait" (default) or "background". */
  perTurn?: PerTurnMode;
  /** Most characters one turn may hold. Default 1 MiB (1,048,576); longer turns are refused whole. */
  maxTurnChars?: number;
  /** Bytes of search index kept in memory over all scopes, least recently used out. Default 1 GiB. */
  indexBudget?: number;
  /**
   * This process's share of the scopes, when it is one of several replicas behind a load balancer
   * that routes by scope (core/replica-share.ts): replica `index` of `of`, counted from 1. Scopes
   * outside the share are still answered; their indexes leave the budget before any of the share's.
   */
  replica?: ReplicaShare;
  /**
   * Consolidation jobs one tenant may have waiting or running (default 1,000); a close past it is
   * refused with BUSY (HTTP 429, `Retry-After`) and changes nothing. Needs a queue that counts
   * them (both of memlane's do).
   */
  maxPendingJobs?: number;
  /** How much of the session a reply sees: the newest turns. Default 40 turns within 24,000 characters. */
  replyWindow?: Partial<ReplyWindow>;
  /** Keep standing instructions and preferences and show them in every reply and recall. Default true. */
  standing?: boolean;
  /** Where warnings and errors the engine cannot return go (listener errors). Default: stderr. */
  logger?: Logger;
  /** A Retriever other than the in-process hybrid index (a store that searches in its database). */
  retriever?: Retriever;
  /**
   * Where consolidation runs: the in-process queue (default), or the Postgres queue shared by API
   * replicas and `memlane worker` processes ("postgres", a URL, or options; see QueueConfig).
   */
  queue?: QueueConfig;
}

/**
 * The queue the config asks for; undefined means the engine's in-process default. The Postgres
 * queue's adapter is loaded only when asked for.
 */
export async function resolveQueue(
  config: Pick<MemlaneConfig, "queue" | "store" | "logger" | "postgres">,
): Promise<JobQueue | undefined> {
  const { queue, store } = config;
  if (queue === undefined || queue === "in-process") return undefined;
  if (typeof queue === "object" && "enqueue" in queue) return checkJobQueue(queue);
  if (typeof queue === "object" && !("postgres" in queue)) {
    return new InProcessJobQueue(queue as InProcessQueueOptions);
  }
  const { postgres, ...options } = typeof queue === "string" ? { postgres: queue } : queue;
  let url = postgres;
  if (postgres === "postgres") {
    if (typeof store !== "string" || !isPostgresUrl(store))
      throw new InvalidInputError(
        'queue "postgres" uses the store\'s database, and the store is not postgres://…: give the queue a URL',
        { field: "queue" },
      );
    url = store;
  }
  if (!isPostgresUrl(url))
    throw new InvalidInputError(
      `Unknown queue ${JSON.stringify(postgres)}; use "in-process", "postgres" or a postgres:// URL`,
      {
        field: "queue",
      },
    );
  const { PostgresJobQueue } = await loadPostgresAdapter();
  // pg-boss's pool takes its share of the process's budget unless the queue's options size it.
  const split = splitConnections(postgresSettings(config.postgres).maxConnections, queueShape(queue));
  return new PostgresJobQueue({ logger: config.logger, maxConnections: split.queue, ...options, url });
}

/** What the Postgres queue a config names holds of the connection budget, if it names one. */
function queueShape(queue: QueueConfig | undefined): { work: boolean; concurrency: number } | undefined {
  if (queue === "postgres" || (typeof queue === "string" && isPostgresUrl(queue)))
    return { work: true, concurrency: 1 };
  if (typeof queue === "object" && queue !== null && "postgres" in queue)
    return { work: queue.work ?? true, concurrency: Math.max(1, queue.concurrency ?? 1) };
  // A queue instance given whole (the CLI's) was sized by whoever made it; count it as sending only.
  if (typeof queue === "object" && queue !== null && "enqueue" in queue && "works" in queue)
    return { work: Boolean((queue as { works: unknown }).works), concurrency: 1 };
  return undefined;
}

/** The store a spec names; the Postgres adapter is loaded only for a Postgres spec. */
export async function resolveStore(
  store: string | MemoryStore | undefined,
  options: Pick<MemlaneConfig, "vectorSearch" | "postgres" | "queue"> = {},
): Promise<MemoryStore> {
  if (store && typeof store === "object") return checkSpecification(store, MEMORY_STORE_SPECIFICATION);
  const spec = store ?? "./memlane.db";
  const vectorSearch = options.vectorSearch ?? "auto";
  if (vectorSearch !== "auto" && vectorSearch !== "exact")
    throw new InvalidInputError(`Unknown vector search "${vectorSearch}"; use "auto" or "exact"`, {
      field: "vectorSearch",
    });
  // postgres://… and postgresql://… (a server), pglite:<dir> or pglite:memory (in process).
  if (isPostgresSpec(spec)) {
    const settings = postgresSettings(options.postgres);
    const split = splitConnections(settings.maxConnections, queueShape(options.queue));
    return (await loadPostgresAdapter(spec)).openPostgresStore(spec, {
      vectorSearch,
      statementTimeoutMs: settings.statementTimeoutMs,
      lockTimeoutMs: settings.lockTimeoutMs,
      poolSize: split.store,
      sessionLockPoolSize: split.sessionLocks,
    });
  }
  const path = spec.startsWith("sqlite:") ? spec.slice("sqlite:".length) : spec;
  if (!path) throw new InvalidInputError(`Store "${spec}" names no file`);
  return new SqliteStore(path);
}

/**
 * The retriever the engine uses: the one given; over a store that can search vectors in its
 * database (Postgres), the hybrid whose dense signal comes from there; otherwise undefined (the
 * engine's in-process hybrid).
 */
export function resolveRetriever(
  retriever: Retriever | undefined,
  store: MemoryStore,
  embedder: Embedder,
  options: RetrieverOptions = {},
): Retriever | undefined {
  if (retriever) return retriever;
  return store.searchesInDatabase ? new PgvectorRetriever(store, embedder, options) : undefined;
}

export function resolveChat(chat: ChatConfig | undefined): ChatModel | null {
  if (!chat) return null;
  if ("generate" in chat) return checkSpecification(chat, CHAT_MODEL_SPECIFICATION);
  if ("gguf" in chat)
    return new GgufChatModel({
      modelPath: chat.gguf,
      threads: chat.threads,
      contextSize: chat.contextSize,
      timeoutMs: chat.timeoutMs,
    });
  if (!chat.baseURL || !chat.model) throw new InvalidInputError("A chat endpoint needs baseURL and model");
  return new OpenAICompatibleChatModel(chat);
}

export function resolveEmbedder(embedder: EmbedderConfig | undefined): Embedder {
  if (embedder === undefined || embedder === "use") return new UniversalSentenceEncoder();
  if (embedder === "hash") return new HashEmbedder();
  if (typeof embedder === "object" && "embed" in embedder)
    return checkSpecification(embedder, EMBEDDER_SPECIFICATION);
  if (typeof embedder === "object" && embedder.baseURL && embedder.model)
    return new OpenAICompatibleEmbedder(embedder);
  throw new InvalidInputError(
    `Unknown embedder ${JSON.stringify(embedder)}; use "use", "hash" or an endpoint`,
  );
}

export function resolveCognition(
  config: MemlaneConfig,
  chat: ChatModel | null,
  embedder: Embedder,
): Cognition {
  const choice = config.cognition ?? (chat ? "llm" : "offline");
  if (typeof choice === "object") return checkCognition(choice);
  if (choice === "offline") return new OfflineCognition(embedder);
  if (choice === "llm") {
    if (!chat)
      throw new InvalidInputError('cognition "llm" needs a chat model: set `chat` (endpoint or gguf)');
    const logger = config.logger ?? consoleLogger;
    return new LlmCognition(chat, {
      retries: config.retries,
      // What the window made a step leave out is said once, here, whatever the strategy.
      onWarning: (warning) => logger.warn(warning.message, { ...warning }),
    });
  }
  throw new InvalidInputError(`Unknown cognition "${String(choice)}"; use "offline" or "llm"`);
}

const CONFIG_FIELDS = fieldsOf<MemlaneConfig>({
  store: true,
  vectorSearch: true,
  postgres: true,
  strategy: true,
  strategies: true,
  tenant: true,
  chat: true,
  cognition: true,
  embedder: true,
  retries: true,
  perTurn: true,
  maxTurnChars: true,
  indexBudget: true,
  replica: true,
  maxPendingJobs: true,
  replyWindow: true,
  standing: true,
  logger: true,
  retriever: true,
  queue: true,
});

/**
 * Names callers bring to `openMemlane` from elsewhere, and the option memlane calls them: the
 * CLI's flag is `--db`, and other libraries name their database file `database` or `path`.
 */
const CONFIG_HINTS = { db: "store", dbPath: "store", database: "store", path: "store", file: "store" };

const ENDPOINT_FIELDS = fieldsOf<OpenAICompatibleConfig>({
  baseURL: true,
  model: true,
  apiKey: true,
  timeoutMs: true,
  maxRetries: true,
  contextWindow: true,
});

const GGUF_FIELDS = ["gguf", "threads", "contextSize", "timeoutMs"] as const;

const IN_PROCESS_QUEUE_FIELDS = fieldsOf<InProcessQueueOptions>({ concurrency: true, perTenant: true });

const QUEUE_FIELDS = [
  "postgres",
  ...fieldsOf<Omit<PostgresQueueOptions, "url">>({
    work: true,
    concurrency: true,
    perTenant: true,
    jobTimeoutSeconds: true,
    retryLimit: true,
    retryDelaySeconds: true,
    pollSeconds: true,
    maintenanceSeconds: true,
    schema: true,
    maxConnections: true,
    logger: true,
  }),
];

const POSTGRES_FIELDS = fieldsOf<PostgresSettings>({
  statementTimeoutMs: true,
  lockTimeoutMs: true,
  maxConnections: true,
});

const REPLY_WINDOW_FIELDS = fieldsOf<ReplyWindow>({ turns: true, chars: true });

/**
 * Refuses `openMemlane` options it would not read, before anything is opened: a misspelt or
 * borrowed option (`db` for `store`) would otherwise leave its default in force unseen (a
 * `./memlane.db` on disk instead of the memory database asked for). The plain-object settings
 * inside (a chat or embedder endpoint, a GGUF file, the Postgres queue, the reply window) are
 * checked the same way; instances (a ChatModel, an Embedder, a JobQueue) are the caller's own.
 * @throws {InvalidInputError} options that are not an object, or an unknown field (`details.field`)
 */
export function checkConfig(config: unknown): asserts config is MemlaneConfig {
  if (config === null || typeof config !== "object" || Array.isArray(config))
    throw new InvalidInputError(
      `openMemlane takes an options object, e.g. openMemlane({ store: "memlane.db" }); got ${
        Array.isArray(config) ? "an array" : typeof config
      }`,
      { field: "options" },
    );
  const what = "openMemlane options";
  refuseUnknownFields(config, CONFIG_FIELDS, what, { hints: CONFIG_HINTS });
  const { chat, embedder, queue, replyWindow, postgres } = config as MemlaneConfig;
  if (isPlainSetting(postgres)) {
    refuseUnknownFields(postgres, POSTGRES_FIELDS, what, { where: "postgres" });
    postgresSettings(postgres);
  }
  if (isPlainSetting(chat) && !("generate" in chat))
    refuseUnknownFields(chat, "gguf" in chat ? GGUF_FIELDS : ENDPOINT_FIELDS, what, { where: "chat" });
  if (isPlainSetting(embedder) && !("embed" in embedder))
    refuseUnknownFields(
      embedder,
      [...ENDPOINT_FIELDS.filter((f) => f !== "contextWindow"), "dimensions"],
      what,
      { where: "embedder" },
    );
  if (isPlainSetting(queue) && !("enqueue" in queue))
    refuseUnknownFields(queue, "postgres" in queue ? QUEUE_FIELDS : IN_PROCESS_QUEUE_FIELDS, what, {
      where: "queue",
    });
  if (isPlainSetting(replyWindow))
    refuseUnknownFields(replyWindow, REPLY_WINDOW_FIELDS, what, { where: "replyWindow" });
}

/** A setting given as an object literal, not an instance of a class (a model, a queue). */
function isPlainSetting(value: unknown): value is object {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The default retriever's options: the index budget, the replica's share of the scopes, and
 * rebuilds said in the log.
 */
export function retrieverOptions(
  indexBudget: number | undefined,
  logger: Logger,
  replica?: ReplicaShare,
): RetrieverOptions {
  const share = replica === undefined ? null : checkReplicaShare(replica);
  return {
    budget: parseInput(indexBudgetSchema, indexBudget ?? DEFAULT_INDEX_BUDGET, "indexBudget"),
    ...(share ? { home: (scope: Scope) => isHome(share, scope) } : {}),
    onRebuild: (scope, kind, reason) =>
      // A log pruned past an index is worth a warning; a delta too large to be worth applying is not.
      (reason.startsWith("the change log") ? logger.warn : logger.debug)(
        `search index of ${kind} built again instead of updated: ${reason}`,
        { tenant: scope.tenant, agent: scope.agent },
      ),
  };
}

const indexBudgetSchema = z.number().int().min(0);
