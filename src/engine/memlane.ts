/**
 * The facade users hold: sessions, conversations between agents, turns, replies, background
 * consolidation, recall, history, timelines, forgetting, ingest and an event stream. It parses
 * every call with its schema (api.ts), scopes it to this view's tenant, and hands it to the use
 * case that does the work (recall.ts, reply/, session/, forget/, history/, ingest/,
 * maintenance.ts); `openMemlane` (open-memlane.ts) builds one from names.
 * `mem.tenant("acme")` is a view of the same engine in another tenant: same store, caches and
 * queue, nothing crossing between tenants.
 */

import { z } from "zod";
import { type Cognition, checkCognition } from "../cognition/cognition.js";
import { warmOffline } from "../cognition/offline/warm-up.js";
import { ConflictError, InvalidInputError, isMemlaneError, NotFoundError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { checkReplicaShare, type ReplicaShare } from "../core/replica-share.js";
import { checkSpecification } from "../core/specification.js";
import type { Edge, Hearing, Memory, MemoryFilter, Operation, Scope, Session, Turn } from "../core/types.js";
import { fieldsOf, refuseUnknownFields } from "../core/unknown-fields.js";
import type { ChatModel } from "../models/chat-model.js";
import { CHAT_MODEL_SPECIFICATION } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import { EMBEDDER_SPECIFICATION } from "../models/embedder.js";
import { EngineCaches } from "../retrieval/engine-caches.js";
import { InProcessRetriever } from "../retrieval/in-process-retriever.js";
import { checkRetriever, type Retriever } from "../retrieval/retriever.js";
import { searchedQuery } from "../retrieval/searched-query.js";
import type {
  ForgetReport,
  MemoryStore,
  OperationFilter,
  StoreStats,
  TurnFilter,
} from "../store/memory-store.js";
import { MEMORY_STORE_SPECIFICATION } from "../store/memory-store.js";
import { StrategyRegistry } from "../strategies/registry.js";
import type { Strategy } from "../strategies/strategy.js";
import {
  type AddFactInput,
  addFactSchema,
  type ConversationInput,
  checkTurnLength,
  conversationInputSchema,
  conversationTime,
  DEFAULT_MAX_TURN_CHARS,
  type ForgetInput,
  forgetInputSchema,
  idSchema,
  MAX_TURN_CHARS,
  memoryTextSchema,
  parseInput,
  perTurnSchema,
  type RecallInput,
  recallInputSchema,
  type SessionFilter,
  type SessionInput,
  sessionFilterSchema,
  sessionInputSchema,
  tenantSchema,
  type UpdateOptions,
  updateOptionsSchema,
} from "./api.js";
import { retrieverOptions } from "./config.js";
import {
  checkJobQueue,
  DEFAULT_MAX_PENDING_JOBS,
  InProcessJobQueue,
  type JobQueue,
} from "./consolidation/job-queue.js";
import {
  type AddResult,
  addMemory,
  type RestoreResult,
  restoreMemory,
  type UpdateResult,
  updateMemory,
} from "./correction/correction.js";
import { Engine } from "./engine.js";
import { EventStream, type JobInfo, type MemlaneEvents } from "./events.js";
import { type ExportCounts, type ExportInput, exportInputSchema } from "./export/export-format.js";
import { exportLines } from "./export/export-scope.js";
import { type ImportOptions, type ImportReport, importScope } from "./export/import-scope.js";
import { importedVectors } from "./export/imported-vectors.js";
import { forgetInScope } from "./forget/forget.js";
import { type ForgetListener, forgetListenersOf } from "./forget/forget-listeners.js";
import { type HistoryView, historyOf, timelineOf } from "./history/history.js";
import type { TimelineView } from "./history/timeline.js";
import type { Transcript } from "./ingest/formats/transcript.js";
import type { IngestOptions, IngestReport } from "./ingest/ingest.js";
import { ingestValidated, validateTranscripts } from "./ingest/ingest-run.js";
import {
  asOperationType,
  type ListEdgesInput,
  type ListMemoriesInput,
  type ListOperationsInput,
  type ListSessionsInput,
  type ListTurnsInput,
  listEdgesSchema,
  listMemoriesSchema,
  listOperationsSchema,
  listSessionsSchema,
  listTurnsSchema,
  memoryFilterOf,
  withConversationTimes,
} from "./list/list-inputs.js";
import { listPage, type Page } from "./list/list-page.js";
import { consoleLogger, type Logger } from "./logger.js";
import {
  failuresIn,
  type ReindexReport,
  type RetryReport,
  reindexScope,
  retryIn,
  waitingIn,
} from "./maintenance.js";
import { type AddMessagesResult, addMessages } from "./messages/add-messages.js";
import type { AddMessagesInput } from "./messages/message-schemas.js";
import {
  INGEST_OPTIONS_FIELDS,
  MEMORY_FILTER_FIELDS,
  OPERATION_FILTER_FIELDS,
  RESUME_OPTIONS_FIELDS,
  RETRY_OPTIONS_FIELDS,
  TURN_FILTER_FIELDS,
} from "./option-fields.js";
import type { EngineParts } from "./parts.js";
import { defaultRecallScope, recallHearing } from "./privacy/hearing.js";
import { recallMemories, recallTurns } from "./recall.js";
import { parseReplyWindow, type ReplyWindow } from "./reply/reply-window.js";
import { Conversation } from "./session/conversation.js";
import { SessionHandle } from "./session/session-handle.js";
import { conversationRecords, sessionRecord } from "./session/start-session.js";
import type { PerTurnMode } from "./session/turn-path.js";
import { TenantStore } from "./tenant-store.js";

export type { AddResult, RestoreResult, UpdateResult } from "./correction/correction.js";
export type { CorrectionNote, HistoryView } from "./history/history.js";
export type { ReindexReport, RetryReport } from "./maintenance.js";
export type { AddMessagesResult } from "./messages/add-messages.js";
export type { AddMessagesInput, MessageInput } from "./messages/message-schemas.js";

/** @deprecated Use SessionInput. */
export type SessionOptions = SessionInput;
/** @deprecated Use RecallInput. */
export type RecallOptions = RecallInput;

/** One agent's counts, sessions, failures and jobs: what `inspect()` returns. */
export interface InspectView extends StoreStats {
  agent: string;
  strategy: string;
  cognition: string;
  embedder: string;
  sessionList: Session[];
  /** Sessions whose turns have not reached memory yet (see `waiting`). */
  waiting: { session: Session; turns: number }[];
  failures: Operation[];
  jobs: JobInfo[];
}

/** The ports of an engine, as instances (`openMemlane` builds them from names). */
export interface MemlaneOptions {
  store: MemoryStore;
  cognition: Cognition;
  embedder: Embedder;
  /** The default strategy. */
  strategy: Strategy;
  /** Other strategies, found by the name their sessions carry. */
  strategies?: Strategy[];
  /** The chat model behind LLM cognition, if any (for reports). */
  chat?: ChatModel | null;
  /** Default: the in-process hybrid index over `store` with `embedder`. */
  retriever?: Retriever;
  /** Default: jobs in this process, two at a time, fair across tenants (InProcessJobQueue). */
  queue?: JobQueue;
  /**
   * Consolidation jobs one tenant may have waiting or running (DEFAULT_MAX_PENDING_JOBS, 1,000):
   * a close past it is refused with BusyError and changes nothing.
   */
  maxPendingJobs?: number;
  /** Default: warnings and errors on stderr. */
  logger?: Logger;
  /** The tenant of this view. Default "default". */
  tenant?: string;
  /** How `session.turn()` treats per-turn work unless a session or turn says otherwise. Default "wait". */
  perTurn?: PerTurnMode;
  /** Most characters one turn may hold (DEFAULT_MAX_TURN_CHARS, 1 MiB); longer ones are refused whole. */
  maxTurnChars?: number;
  /**
   * Bytes of search index the default retriever keeps in memory over all scopes (default
   * DEFAULT_INDEX_BUDGET, 1 GiB); the least recently used scopes leave first and load again when asked.
   */
  indexBudget?: number;
  /**
   * This process's share of the scopes, as one of several replicas behind a load balancer that
   * routes by scope (core/replica-share.ts). The default retriever lets the indexes of scopes
   * outside the share leave its budget first; every scope is still answered.
   */
  replica?: ReplicaShare;
  /**
   * How much of the session a reply sees: the newest `turns` turns holding at most `chars`
   * characters (DEFAULT_REPLY_WINDOW: 40 turns, 24,000 characters). Recall still searches all.
   */
  replyWindow?: Partial<ReplyWindow>;
  /**
   * Whether strategies that keep memory also keep each partner's standing instructions and
   * preferences, and hand them to every reply and recall about that partner. Default true.
   */
  standing?: boolean;
  /** Resources the engine must release on close (worker threads of an embedder it made). */
  owned?: { close(): Promise<void> }[];
}

const MEMLANE_OPTIONS_FIELDS = fieldsOf<MemlaneOptions>({
  store: true,
  cognition: true,
  embedder: true,
  strategy: true,
  strategies: true,
  chat: true,
  retriever: true,
  queue: true,
  logger: true,
  tenant: true,
  perTurn: true,
  maxTurnChars: true,
  maxPendingJobs: true,
  indexBudget: true,
  replica: true,
  replyWindow: true,
  standing: true,
  owned: true,
});

/** What every tenant view of one engine shares. */
interface Shared {
  engine: Engine;
  perTurn: PerTurnMode;
  owned: { close(): Promise<void> }[];
  closing: Promise<void> | null;
  replica: ReplicaShare | null;
}

/** The fields `import` takes. */
const IMPORT_FIELDS = fieldsOf<Omit<ImportOptions, "tenant" | "onProgress" | "vectors">>({
  source: true,
  batchRows: true,
  check: true,
});

/**
 * The facade users hold: one tenant's view of a memlane engine. Every call is validated with its
 * schema and scoped to this tenant; `tenant(name)` gives views of others over the same engine.
 */
export class Memlane {
  /** The tenant every call of this view works in. */
  readonly tenantId: string;
  private readonly shared: Shared;

  /**
   * An engine over the given ports; every port is checked for its specification version.
   * `openMemlane` is the usual way in (it builds the ports from names).
   * @throws {UnsupportedError} a port of another specification version
   */
  constructor(options: MemlaneOptions) {
    refuseUnknownFields(options, MEMLANE_OPTIONS_FIELDS, "Memlane options");
    this.tenantId = parseInput(tenantSchema, options.tenant ?? "default", "tenant");
    const strategies = new StrategyRegistry(options.strategies ?? []);
    const logger = options.logger ?? consoleLogger;
    const store = checkSpecification(options.store, MEMORY_STORE_SPECIFICATION);
    const embedder = checkSpecification(options.embedder, EMBEDDER_SPECIFICATION);
    this.shared = {
      engine: new Engine({
        store,
        caches: new EngineCaches(store),
        embedder,
        cognition: checkCognition(options.cognition),
        chat: options.chat ? checkSpecification(options.chat, CHAT_MODEL_SPECIFICATION) : null,
        strategy: strategies.register(options.strategy),
        strategies,
        logger,
        events: new EventStream(logger),
        retriever: options.retriever
          ? checkRetriever(options.retriever)
          : new InProcessRetriever(
              store,
              embedder,
              retrieverOptions(options.indexBudget, logger, options.replica),
            ),
        maxTurnChars: parseInput(
          maxTurnCharsSchema,
          options.maxTurnChars ?? DEFAULT_MAX_TURN_CHARS,
          "maxTurnChars",
        ),
        replyWindow: parseReplyWindow(options.replyWindow, options.chat?.contextWindow),
        standing: parseInput(z.boolean(), options.standing ?? true, "standing"),
        maxPendingJobs: parseInput(
          z.number().int().min(1),
          options.maxPendingJobs ?? DEFAULT_MAX_PENDING_JOBS,
          "maxPendingJobs",
        ),
        queue: options.queue ? checkJobQueue(options.queue) : new InProcessJobQueue(),
      }),
      perTurn: parseInput(perTurnSchema, options.perTurn ?? "wait", "perTurn"),
      owned: options.owned ?? [],
      closing: null,
      replica: options.replica === undefined ? null : checkReplicaShare(options.replica),
    };
  }

  private get engine(): Engine {
    return this.shared.engine;
  }

  private get parts(): EngineParts {
    return this.shared.engine.parts;
  }

  /**
   * The store, as this tenant may use it: every call naming another tenant is refused. Reads
   * here skip the facade's checks and strategies; prefer the facade's calls.
   */
  get store(): MemoryStore {
    this.guardedStore ??= new TenantStore(this.parts.store, this.tenantId);
    return this.guardedStore;
  }

  private guardedStore?: TenantStore;

  /** The engine's default strategy. */
  get strategy(): Strategy {
    return this.parts.strategy;
  }

  /** The cognition engine ("offline" or the chat model's name). */
  get cognition(): Cognition {
    return this.parts.cognition;
  }

  /** The embedder every vector is made with. */
  get embedder(): Embedder {
    return this.parts.embedder;
  }

  /** The chat model, when one was configured. */
  get chat(): ChatModel | null {
    return this.parts.chat;
  }

  /** This replica's share of the scopes, when it was given one (`replica`); null otherwise. */
  get replica(): ReplicaShare | null {
    return this.shared.replica;
  }

  /**
   * The search indexes this process holds under its byte budget (bytes allowed, bytes held,
   * indexes held), or null when the retriever keeps none here (one given in the options).
   */
  indexes(): { limit: number; used: number; count: number } | null {
    const retriever = this.parts.retriever;
    if (!(retriever instanceof InProcessRetriever)) return null;
    const { limit, used, count } = retriever.budget;
    return { limit, used, count };
  }

  /**
   * The same engine in another tenant: every call of the view reads and writes that tenant only;
   * store, caches and queue are shared. Cheap: make one per request.
   * @example const acme = mem.tenant("acme"); await acme.recall({ agent: "ava", query: "pets?" });
   * @throws {InvalidInputError} a blank tenant
   */
  tenant(name: string): Memlane {
    const view = Object.create(Memlane.prototype) as Memlane;
    Object.assign(view, { tenantId: parseInput(tenantSchema, name, "tenant"), shared: this.shared });
    return view;
  }

  /** The scope of one agent in this tenant. @throws {InvalidInputError} a missing or blank agent */
  scope(agent: string): Scope {
    return { tenant: this.tenantId, agent: parseInput(idSchema, agent, "agent") };
  }

  /**
   * Subscribes to this tenant's recorded operations ("operation") or background jobs ("job");
   * returns the function that unsubscribes. A listener that throws is reported to the logger.
   */
  on<K extends keyof MemlaneEvents>(event: K, listener: (payload: MemlaneEvents[K]) => void): () => void {
    return this.parts.events.on(event, (payload) => {
      if (payload.tenant === this.tenantId) listener(payload);
    });
  }

  /**
   * Starts a session and stores it right away (status "open").
   * @example const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
   * @throws {InvalidInputError} a missing agent or partner, the agent as its own partner, a bad time
   * @throws {ConflictError} the id is taken
   */
  async session(options: SessionInput): Promise<SessionHandle> {
    this.engine.assertOpen();
    const input = parseInput(sessionInputSchema, options, "session");
    const scope = this.scope(input.agent);
    const session = sessionRecord(
      scope,
      input,
      () => (input.strategy ? this.strategyNamed(input.strategy, "strategy") : this.parts.strategy),
      () => (input.at ? conversationTime(input.at, "at") : new Date().toISOString()),
    );
    await this.parts.store.write(scope, { sessions: [session] });
    return new SessionHandle(this.engine, scope, session, input.perTurn ?? this.shared.perTurn);
  }

  /**
   * A conversation between two or more agents of this tenant (and optionally people): each agent
   * keeps its own session, consolidated by its own strategy, and each utterance is added once.
   * @throws {InvalidInputError} fewer than two agents or more than MAX_CONVERSATION_AGENTS, a
   * partner who is also an agent, a strategy for someone who is not an agent
   */
  async conversation(options: ConversationInput): Promise<Conversation> {
    this.engine.assertOpen();
    const input = parseInput(conversationInputSchema, options, "conversation");
    const { id, targets } = conversationRecords(
      input,
      (agent) => this.scope(agent),
      (agent) =>
        input.strategies?.[agent]
          ? this.strategyNamed(input.strategies[agent], `strategies.${agent}`)
          : this.parts.strategy,
      () => (input.at ? conversationTime(input.at, "at") : new Date().toISOString()),
    );
    await this.parts.store.writeMany(
      targets.map((t) => ({ scope: t.scope, batch: { sessions: [t.session] } })),
    );
    return new Conversation(this.engine, id, targets, input.perTurn ?? this.shared.perTurn);
  }

  /**
   * Picks up an open conversation between agents (after a restart, or in another request).
   * @throws {NotFoundError} `agent` has no such conversation
   */
  async resumeConversation(
    agent: string,
    conversationId: string,
    options: { perTurn?: PerTurnMode } = {},
  ): Promise<Conversation> {
    refuseUnknownFields(options, RESUME_OPTIONS_FIELDS, "resumeConversation options");
    const mode = parseInput(perTurnSchema.optional(), options.perTurn, "perTurn") ?? this.shared.perTurn;
    const first = await this.openSession(agent, conversationId);
    const agents = Array.isArray(first.meta.agents) ? (first.meta.agents as string[]) : [];
    if (first.meta.conversation !== conversationId || agents.length < 2)
      throw new NotFoundError(
        `Session "${conversationId}" of "${agent}" is not a conversation between agents`,
      );
    const targets = [];
    for (const a of agents)
      targets.push({ scope: this.scope(a), session: await this.openSession(a, conversationId) });
    return new Conversation(this.engine, conversationId, targets, mode);
  }

  /**
   * Ends a session by id and queues its consolidation. A session already closed whose
   * consolidation is not queued here (its close stored the status, then the queue failed) is
   * queued again, so retrying a close that failed succeeds; a job that runs twice is harmless,
   * since the store consolidates a session once.
   * @throws {NotFoundError} no such session for the agent
   * @throws {ConflictError} the session is consolidated, or its consolidation is queued already
   * @throws {BusyError} the tenant has `maxPendingJobs` consolidations waiting; nothing changed
   *
   * An open session with no turns ends with nothing to consolidate: `job` is null.
   */
  async closeSession(
    agent: string,
    sessionId: string,
  ): Promise<{ job: JobInfo | null; done: Promise<JobInfo | null> }> {
    this.engine.assertOpen();
    const scope = this.scope(agent);
    const id = parseInput(idSchema, sessionId, "sessionId");
    const stored = await this.parts.store.getSession(scope, id);
    if (stored?.status === "closed") {
      if (this.engine.queuedSessions(scope).has(id))
        throw new ConflictError(`Session "${id}" is closed and its consolidation is queued`, {
          field: "sessionId",
          status: stored.status,
        });
      await this.engine.admit(scope.tenant);
      return this.engine.enqueue(scope, id);
    }
    return (await this.resume(agent, id)).close();
  }

  /**
   * Picks up an open session (after a restart, or in another request of a server).
   * @throws {NotFoundError} no such session for the agent
   * @throws {ConflictError} the session is not open any more
   */
  async resume(
    agent: string,
    sessionId: string,
    options: { perTurn?: PerTurnMode } = {},
  ): Promise<SessionHandle> {
    refuseUnknownFields(options, RESUME_OPTIONS_FIELDS, "resume options");
    const mode = parseInput(perTurnSchema.optional(), options.perTurn, "perTurn") ?? this.shared.perTurn;
    const session = await this.openSession(agent, sessionId);
    return new SessionHandle(this.engine, this.scope(agent), session, mode);
  }

  private async openSession(agent: string, id: string): Promise<Session> {
    this.engine.assertOpen();
    const scope = this.scope(agent);
    const sessionId = parseInput(idSchema, id, "sessionId");
    const session = await this.parts.store.getSession(scope, sessionId);
    if (!session) throw new NotFoundError(`No session "${sessionId}" for agent "${agent}"`);
    // A closed session exists but cannot take turns or be closed again: a conflict with its state.
    if (session.status !== "open")
      throw new ConflictError(`Session "${sessionId}" is ${session.status}, not open`, {
        field: "sessionId",
        status: session.status,
      });
    return session;
  }

  private strategyNamed(name: string, field: string): Strategy {
    try {
      return this.parts.strategies.get(name);
    } catch (error) {
      if (isMemlaneError(error)) error.details.field = field;
      throw error;
    }
  }

  /**
   * Loads now what the first request would otherwise load while every other caller waits: the
   * offline tagger, WordNet, the shipped models and the embedder's model (and its worker threads).
   * `memlane serve` calls it before it listens; a script need not. Safe to call more than once.
   */
  async warmUp(): Promise<void> {
    this.engine.assertOpen();
    warmOffline();
    await this.parts.embedder.warmUp?.();
  }

  /** Resolves when every queued consolidation has run. */
  idle(): Promise<void> {
    return this.parts.queue.idle();
  }

  /** Background jobs of this tenant, newest last. */
  jobs(): JobInfo[] {
    return this.parts.queue.jobs().filter((j) => j.tenant === this.tenantId);
  }

  /**
   * What the strategy remembers for a query, each hit explained per signal; empty when the scope
   * holds nothing. A read: it never writes.
   * @example await mem.recall({ agent: "ava", about: "sam", query: "what pets does Sam have?" });
   */
  async recall(options: RecallInput): Promise<Recall> {
    const input = parseInput(recallInputSchema, options, "recall");
    const scope = this.scope(input.agent);
    const query = searchedQuery(input.query);
    const now = input.now === undefined ? undefined : conversationTime(input.now, "now");
    if (input.units === "turns" && input.turns)
      throw new InvalidInputError(
        "turns adds raw turns to a recall of memories; with units: turns every hit is a turn already (use k)",
        { field: "turns" },
      );
    const strategy = input.strategy ? this.strategyNamed(input.strategy, "strategy") : this.parts.strategy;
    // `about` names whom the recall is for: under partner scope what they may hear (their words
    // and the agent's to them), under agent scope everything but other partners' private memories.
    const hearing = recallHearing(input.scope ?? defaultRecallScope(strategy), input.about);
    if (input.units === "turns" && input.filter)
      throw new InvalidInputError("filter narrows the memories a recall searches; units: turns takes none", {
        field: "filter",
      });
    if (input.units === "turns")
      return recallTurns(this.parts, scope, {
        query,
        originalQuery: input.query,
        hearing,
        k: input.k ?? 10,
        now,
      });
    const recall = await recallMemories(this.parts, scope, {
      strategy,
      query,
      hearing,
      standingFor: input.about ? [input.about] : undefined,
      ...(input.filter ? { filter: withConversationTimes(input.filter) } : {}),
      k: input.k,
      now,
      turns: input.turns,
    });
    return query === input.query ? recall : { ...recall, query: input.query };
  }

  /**
   * Active memories of an agent (all with `status: "any"`), every one at once; `listMemories`
   * reads them a page at a time.
   */
  async memories(agent: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    refuseUnknownFields(filter, MEMORY_FILTER_FIELDS, "memories filter");
    return this.parts.store.listMemories(this.scope(agent), withConversationTimes(filter));
  }

  /**
   * One page of an agent's memories, oldest learned first (`newest: true`: newest first), active ones unless `status` says
   * otherwise, narrowed by subject, kind, strategy, session, the caller's meta (`attributes.meta`,
   * equality or `{ in: [...] }`) and dates (`observedAfter`/`observedBefore` on when it was
   * learned, `validAfter`/`validBefore` on when it was current). Pass a page's `nextCursor` as
   * `cursor`, with the same filters, for the next page.
   * `hearing`, when given, keeps the page to what those partners may hear (core/audience.ts), as a
   * recall for them is kept: the list for a walled caller (an MCP server for one partner).
   * @example const { items, nextCursor } = await mem.listMemories("ava", { meta: { topic: "work" }, limit: 50 });
   * @throws {InvalidInputError} an unknown field, a cursor memlane did not give, a limit out of range, an unreadable time
   */
  async listMemories(agent: string, input: ListMemoriesInput = {}, hearing?: Hearing): Promise<Page<Memory>> {
    const parsed = parseInput(listMemoriesSchema, input, "memories list");
    // The hearing comes last, as in a recall: no field of the input can replace it.
    const filter = { ...memoryFilterOf(parsed), ...(hearing ? { hearing } : {}) };
    return listPage(this.parts.store, this.scope(agent), "memories", filter, parsed);
  }

  /**
   * One page of an agent's sessions, oldest first, narrowed by status, partner, strategy, meta
   * and conversation time (`after` inclusive, `before` exclusive).
   * @throws {InvalidInputError} as `listMemories`
   */
  async listSessions(agent: string, input: ListSessionsInput = {}): Promise<Page<Session>> {
    const { limit, cursor, newest, ...filter } = parseInput(listSessionsSchema, input, "sessions list");
    const page = { limit, cursor, newest };
    return listPage(this.parts.store, this.scope(agent), "sessions", withConversationTimes(filter), page);
  }

  /**
   * One page of an agent's turns in conversation time, oldest first (`newest: true`: newest
   * first), narrowed by session, speaker, meta and time.
   * @throws {InvalidInputError} as `listMemories`
   */
  async listTurns(agent: string, input: ListTurnsInput = {}): Promise<Page<Turn>> {
    const { limit, cursor, newest, ...filter } = parseInput(listTurnsSchema, input, "turns list");
    return listPage(this.parts.store, this.scope(agent), "turns", withConversationTimes(filter), {
      limit,
      cursor,
      newest,
    });
  }

  /**
   * One page of an agent's operation log, oldest first (`newest: true`: newest first), narrowed by
   * memory, session, status, type and time.
   * @throws {InvalidInputError} as `listMemories`; a cursor of the other order too
   */
  async listOperations(agent: string, input: ListOperationsInput = {}): Promise<Page<Operation>> {
    const { limit, cursor, newest, type, ...rest } = parseInput(
      listOperationsSchema,
      input,
      "operations list",
    );
    const filter = {
      ...withConversationTimes(rest),
      ...(type === undefined ? {} : { type: asOperationType(type) }),
    };
    return listPage(this.parts.store, this.scope(agent), "operations", filter, { limit, cursor, newest });
  }

  /**
   * One page of the edges between an agent's memories, oldest first, narrowed to one memory's
   * (either end) and to types.
   * @throws {InvalidInputError} as `listMemories`
   */
  async listEdges(agent: string, input: ListEdgesInput = {}): Promise<Page<Edge>> {
    const { limit, cursor, newest, ...filter } = parseInput(listEdgesSchema, input, "edges list");
    return listPage(this.parts.store, this.scope(agent), "edges", filter, { limit, cursor, newest });
  }

  /** One memory of an agent, whatever its status; null when the agent has none with that id. */
  getMemory(agent: string, memoryId: string): Promise<Memory | null> {
    return this.parts.store.getMemory(this.scope(agent), memoryId);
  }

  /**
   * The agent's sessions, oldest first; `filter` keeps those in a status (`{ status: "open" }`:
   * the ones never closed, which `closeSession` ends and `forget({ sessionId })` discards) or with
   * a partner.
   * @throws {InvalidInputError} an unknown field or status
   */
  sessions(agent: string, filter: SessionFilter = {}): Promise<Session[]> {
    const wanted = parseInput(sessionFilterSchema, filter, "filter");
    return this.parts.store.listSessions(this.scope(agent), wanted);
  }

  /** One session of an agent; null when the agent has none with that id. */
  getSession(agent: string, sessionId: string): Promise<Session | null> {
    return this.parts.store.getSession(this.scope(agent), sessionId);
  }

  /** One turn of an agent; null when the agent has none with that id. */
  async getTurn(agent: string, turnId: string): Promise<Turn | null> {
    const [turn] = await this.parts.store.listTurns(this.scope(agent), { ids: [turnId] });
    return turn ?? null;
  }

  /** The agent's turns, in order: one session's (`sessionId`), one speaker's, or all. */
  async turns(agent: string, filter: TurnFilter = {}): Promise<Turn[]> {
    refuseUnknownFields(filter, TURN_FILTER_FIELDS, "turns filter");
    return this.parts.store.listTurns(this.scope(agent), filter);
  }

  /** Every edge between the agent's memories (versions, relations, links). */
  edges(agent: string): Promise<Edge[]> {
    return this.parts.store.listEdges(this.scope(agent));
  }

  /** The agent's operation log, newest first, narrowed by memory, session or status. */
  async operations(agent: string, filter: OperationFilter = {}): Promise<Operation[]> {
    refuseUnknownFields(filter, OPERATION_FILTER_FIELDS, "operations filter");
    return this.parts.store.listOperations(this.scope(agent), filter);
  }

  /** Row counts of one agent's scope. */
  stats(agent: string): Promise<StoreStats> {
    return this.parts.store.stats(this.scope(agent));
  }

  /** A memory with every operation on it and what it replaced or was replaced by. @throws {NotFoundError} */
  async history(agent: string, memoryId: string): Promise<HistoryView> {
    const scope = this.scope(agent);
    return historyOf(this.parts.store, scope, parseInput(idSchema, memoryId, "memoryId"));
  }

  /** The memories linked to one (versions and relations) and the chain through it, oldest first. @throws {NotFoundError} */
  async timeline(agent: string, memoryId: string): Promise<TimelineView> {
    const scope = this.scope(agent);
    return timelineOf(this.parts.store, scope, parseInput(idSchema, memoryId, "memoryId"));
  }

  /**
   * Corrects an active memory: a new version with `text` becomes current (same subject, kind,
   * strategy, audience and privacy, the same evidence and conversation time, `meta` if given), and
   * the old one is kept as its past (superseded from now, a Supersedes edge from the new one), with
   * an `UPDATE` operation by the caller (`model: "caller"`) naming both ids and both texts. A
   * memory private to a partner stays private to them; a text that is sensitive becomes private.
   * @example const { memory } = await mem.update("ava", "mem_…", "Sam lives in York, not Leeds.");
   * @throws {NotFoundError} the agent has no memory with that id
   * @throws {ConflictError} the memory is not active: `details.current` lists the versions that
   *   are (update one of those, or `restore` this one)
   * @throws {InvalidInputError} blank or unchanged text, an unknown option; nothing changed
   */
  async update(
    agent: string,
    memoryId: string,
    text: string,
    options: UpdateOptions = {},
  ): Promise<UpdateResult> {
    this.engine.assertOpen();
    const scope = this.scope(agent);
    const id = parseInput(idSchema, memoryId, "memoryId");
    const corrected = parseInput(memoryTextSchema, text, "text");
    checkTurnLength(corrected, this.parts.maxTurnChars);
    const { meta } = parseInput(updateOptionsSchema, options, "update options");
    return updateMemory(this.parts, scope, id, corrected, meta);
  }

  /**
   * Makes a superseded memory current again (a wrong correction or supersession walked back):
   * it becomes active, and the versions that hold in its place (what replaced it, through
   * Supersedes or FusedInto edges, or through an earlier restore) retire, with a `RESTORE`
   * operation by the caller naming them all. History shows it on both.
   * @example await mem.restore("ava", "mem_…");
   * @throws {NotFoundError} the agent has no memory with that id (a forgotten memory is erased)
   * @throws {ConflictError} the memory is active already (`details.reason: "already-current"`)
   */
  async restore(agent: string, memoryId: string): Promise<RestoreResult> {
    this.engine.assertOpen();
    const scope = this.scope(agent);
    return restoreMemory(this.parts, scope, parseInput(idSchema, memoryId, "memoryId"));
  }

  /**
   * Stores one fact as the caller states it, with no inference: an active memory dated `at`
   * (default now), kind "fact", under the default strategy, with an `ADD` operation by the
   * caller. It retires nothing, even when it contradicts a memory: which holds is for a
   * correction (`update`, `restore`) to say. A fact about a partner is theirs to hear; one about
   * the agent itself is heard in agent-scope recalls; a sensitive one is private (docs/privacy.md).
   * @example await mem.add("ava", { about: "sam", text: "Sam is allergic to penicillin." });
   * @throws {InvalidInputError} a missing or blank field, an unknown field, a bad time; nothing changed
   */
  add(agent: string, fact: AddFactInput): Promise<AddResult>;
  /**
   * Stores a whole exchange in one call: the messages (OpenAI-style `{ role, content }`, role
   * "user" being the partner and "assistant" the agent, or `{ speaker, text }`) become the turns
   * of one new session of the agent with the partner, heard by that partner only, which is then
   * closed and consolidated in the background (the same as `session()`, `turn()` for each,
   * `close()`). Every message is checked before anything is stored: a bad one stores nothing.
   * - `infer: false`: the messages are kept exactly as given, as turns, and nothing is inferred
   *   from them: no per-turn work, no consolidation, no memory (the session is stored
   *   consolidated at once, in one transaction). They are found by `recall({ units: "turns" })`.
   *   To state a fact as a memory with no inference, use `add(agent, { about, text })`.
   * - `idempotencyKey`: a retried call with the same key stores nothing twice and answers with
   *   the first call's session and turns (`replayed: true`); the key is kept in the store, so this
   *   holds across restarts and replicas. The same key with another request is a ConflictError.
   * - `sessionId` adds to an open session instead; `close: false` leaves the session open.
   * @example await mem.add({ agent: "ava", partner: "sam", messages: [
   *   { role: "user", content: "I adopted a beagle." }, { role: "assistant", content: "Lovely!" }] });
   * @throws {InvalidInputError} a bad message (unknown field, empty text, a role other than user
   *   or assistant, a speaker who is neither agent nor partner, a bad or backward time), `details.field`
   *   naming it (`messages.1.content`); nothing stored
   * @throws {NotFoundError} `sessionId` is not a session of the agent
   * @throws {ConflictError} `idempotencyKey` was used for another request or its session holds
   *   other turns; or its first call is still storing (`details.retryable`: send it again shortly,
   *   and a call cut short part-way is finished then)
   */
  add(input: AddMessagesInput): Promise<AddMessagesResult>;
  async add(first: string | AddMessagesInput, fact?: AddFactInput): Promise<AddResult | AddMessagesResult> {
    this.engine.assertOpen();
    if (typeof first !== "string") {
      if (fact !== undefined)
        throw new InvalidInputError("add({ agent, partner, messages }) takes one argument", { field: "add" });
      return addMessages(this, first, this.parts.maxTurnChars);
    }
    const agent = first;
    const scope = this.scope(agent);
    const input = parseInput(addFactSchema, fact, "add");
    checkTurnLength(input.text, this.parts.maxTurnChars);
    const at = input.at === undefined ? new Date().toISOString() : conversationTime(input.at, "at");
    return addMemory(this.parts, scope, { about: input.about, text: input.text, at, meta: input.meta });
  }

  /**
   * Deletes for real (the only erasing path) and records that it happened, without content. It
   * reaches what is not stored yet too: uploads still running or waiting (their transcripts lose
   * what was forgotten, so no job, takeover or restart stores it) and a running ingest's copy.
   * `about` names a person the agent knows (a partner or a speaker), never a word of text.
   * @throws {NotFoundError} a memory id or session id the agent does not have, or `about` naming
   *   no one it knows (the message lists those it knows)
   * @example await mem.forget({ agent: "ava", about: "sam" });
   */
  async forget(options: ForgetInput): Promise<ForgetReport> {
    const input = parseInput(forgetInputSchema, options, "forget");
    return forgetInScope(this.engine, this.scope(input.agent), input);
  }

  /**
   * Registers a holder of this tenant's transcripts that are not stored yet (an upload job
   * waiting to run): every forget of the tenant tells it as it begins, may name what it holds,
   * and waits for it to drop its copies. Returns the function that removes it.
   */
  onForget(listener: ForgetListener): () => void {
    return forgetListenersOf(this.engine).add(this.tenantId, listener);
  }

  /**
   * Sessions whose turns have not reached memory yet: open ones with turns (a live talk, or one a
   * killed process left) and closed ones nothing is consolidating. `retry` finishes them.
   */
  async waiting(agent: string): Promise<{ session: Session; turns: number }[]> {
    return waitingIn(this.engine, this.scope(agent));
  }

  /** Failed consolidations, per-turn work and step items that still wait for a retry. */
  failures(agent: string): Promise<Operation[]> {
    return failuresIn(this.engine, this.scope(agent));
  }

  /**
   * Runs again every failed per-turn work of an agent, then every failed or interrupted
   * consolidation (or just those of one session). A named open session (or, with `open`, every
   * open session holding turns) is closed and consolidated: how a session a killed process left
   * open reaches memory.
   * @throws {NotFoundError} `sessionId` has nothing waiting
   */
  async retry(agent: string, sessionId?: string, options: { open?: boolean } = {}): Promise<RetryReport> {
    refuseUnknownFields(options, RETRY_OPTIONS_FIELDS, "retry options");
    const scope = this.scope(agent);
    const session = sessionId === undefined ? undefined : parseInput(idSchema, sessionId, "sessionId");
    const { turns, jobs, steps } = await retryIn(this.engine, scope, session, options);
    if (session !== undefined && turns.length === 0 && jobs.length === 0 && steps.length === 0)
      throw new NotFoundError(`Session "${session}" is not waiting for a retry`);
    return { turns, jobs, steps };
  }

  /**
   * Stores and consolidates a transcript, session by session; resumable. The transcript is
   * validated first (InvalidInputError naming the field); nothing is stored when it is not valid.
   */
  async ingest(transcript: unknown, options: IngestOptions = {}): Promise<IngestReport> {
    const [report] = await this.ingestAll([transcript], options);
    return report!;
  }

  /**
   * Checks transcripts as `ingestAll` does before it writes anything, without reading the store:
   * their shape, speakers, times and turn lengths, and that a session named twice has the same
   * turns. The service runs it before it acknowledges an upload, so a bad file is refused at once.
   * @returns the transcripts, normalized (a session named twice kept once)
   * @throws {InvalidInputError} a transcript that is not valid (naming the field)
   * @throws {ConflictError} a session named twice with different turns
   */
  validateTranscripts(transcripts: unknown[]): Transcript[] {
    return validateTranscripts(transcripts, this.parts.maxTurnChars);
  }

  /**
   * Several transcripts (a file holding many): every one is validated and checked against what
   * is stored before any is written, so a conflict in the last leaves the store untouched.
   * @throws {InvalidInputError} a transcript that is not valid (naming the field)
   * @throws {ConflictError} a stored session with other turns
   */
  async ingestAll(transcripts: unknown[], options: IngestOptions = {}): Promise<IngestReport[]> {
    this.engine.assertOpen();
    refuseUnknownFields(options, INGEST_OPTIONS_FIELDS, "ingest options");
    const valid = this.validateTranscripts(transcripts);
    return ingestValidated(this.engine, this.tenantId, valid, (a) => this.scope(a), options);
  }

  /**
   * Stores the vectors an agent's turns and memories lack under the current embedder (written by
   * an older memlane, or under another model). Reads never fill them; this does, in one write.
   */
  async reindex(agent: string): Promise<ReindexReport> {
    return reindexScope(this.engine, this.scope(agent));
  }

  /**
   * This tenant's memory as the lines of the export format (docs/formats.md, "Export"): one
   * agent's scope, or every agent's, whole or only what is a person's (`about`); every status and
   * version, edges, operations, and stored vectors with `embeddings: true`. Read from the store a
   * page at a time: write the lines out as they come (a file, a response), never join them.
   * @throws {InvalidInputError} a bad input (on the call); {NotFoundError} `about` names no one the
   *   exported memory knows (when the first line is read)
   * @example for await (const line of mem.export({ agent: "ava" })) out.write(line);
   */
  export(
    input: ExportInput = {},
    options: { onProgress?: (counts: ExportCounts) => void } = {},
  ): AsyncIterable<string> {
    const parsed = parseInput(exportInputSchema, input, "export");
    const agent = parsed.agent === undefined ? undefined : this.scope(parsed.agent).agent;
    const store = this.parts.store;
    const tenant = this.tenantId;
    return (async function* () {
      const agents = agent === undefined ? await store.listAgents(tenant) : [agent];
      yield* exportLines(store, {
        tenant,
        agents,
        all: agent === undefined,
        ...(parsed.about === undefined ? {} : { about: parsed.about }),
        embeddings: parsed.embeddings ?? false,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
    })();
  }

  /**
   * Reads an export (text chunks: a file stream, or what `export` yields) into this tenant, ids
   * kept, through the store's write path; each batch is written with the vectors the file did
   * not carry under this engine's embedder, so recall finds what it found before. Each batch of `batchRows` lines is one
   * transaction; a bad line stops the import with its number before its batch is written, and
   * `check: true` reads the whole file through writing nothing. A session the store records as
   * forgotten is skipped with everything of it (docs/formats.md says what else a forget reaches).
   * @throws {InvalidInputError} a bad line (`details.line`), another format or a newer version
   * @throws {ConflictError} a row already stored (the scope was imported before)
   * @example await mem.import({ source: createReadStream("ava.jsonl") });
   */
  async import(
    input: Omit<ImportOptions, "tenant" | "onProgress" | "vectors">,
    options: { onProgress?: (report: ImportReport) => void } = {},
  ): Promise<ImportReport> {
    refuseUnknownFields(input, IMPORT_FIELDS, "import");
    const source = input?.source as
      | { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown }
      | undefined;
    if (
      typeof source?.[Symbol.iterator] !== "function" &&
      typeof source?.[Symbol.asyncIterator] !== "function"
    )
      throw new InvalidInputError(
        "import needs `source`: the export's text (a stream, or an iterable of strings)",
        {
          field: "source",
        },
      );
    const { embedder } = this.parts;
    return importScope(this.parts.store, {
      ...input,
      tenant: this.tenantId,
      vectors: (_scope, batch) => importedVectors(embedder, batch),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  }

  /** Agents of this tenant with stored sessions or memories. */
  async agents(): Promise<string[]> {
    return this.parts.store.listAgents(this.tenantId);
  }

  /** Counts, sessions, waiting failures and this tenant's jobs of one agent. */
  async inspect(agent: string): Promise<InspectView> {
    const scope = this.scope(agent);
    return {
      agent,
      strategy: this.parts.strategy.name,
      cognition: this.parts.cognition.name,
      embedder: this.parts.embedder.name,
      ...(await this.parts.store.stats(scope)),
      sessionList: await this.parts.store.listSessions(scope),
      waiting: await this.waiting(agent),
      failures: await this.failures(agent),
      jobs: this.jobs().filter((j) => j.agent === agent),
    };
  }

  /**
   * Waits for every turn, per-turn work and consolidation in flight, then closes the store and
   * what the engine created. Closes the engine for every tenant view; later calls get a
   * ConflictError; a second close does nothing.
   */
  close(): Promise<void> {
    this.shared.closing ??= (async () => {
      await this.engine.shutdown();
      await this.parts.queue.close?.();
      await this.parts.store.close();
      for (const resource of this.shared.owned) await resource.close();
    })();
    return this.shared.closing;
  }
}

const maxTurnCharsSchema = z.number().int().min(1).max(MAX_TURN_CHARS);
