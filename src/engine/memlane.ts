/**
 * The facade users hold (ARCHITECTURE.md §4): sessions, conversations between agents, turns,
 * replies, background consolidation, recall, history, timelines, forgetting, ingest and an event
 * stream — every call validated with its schema (api.ts) and scoped to this view's tenant.
 * `mem.tenant("acme")` is a view of the same engine in another tenant: same store, caches and
 * queue, nothing crossing between tenants.
 */

import { z } from "zod";
import { type Cognition, checkCognition } from "../cognition/cognition.js";
import { warmOffline } from "../cognition/offline/warm-up.js";
import { ConflictError, InvalidInputError, isMemlaneError, NotFoundError } from "../core/errors.js";
import { compositeKey } from "../core/ids.js";
import type { Recall } from "../core/recall.js";
import { checkSpecification } from "../core/specification.js";
import type { Edge, Memory, MemoryFilter, Operation, Scope, Session, Turn } from "../core/types.js";
import { fieldsOf, refuseUnknownFields } from "../core/unknown-fields.js";
import { CachedEmbedder } from "../models/cached-embedder.js";
import type { ChatModel } from "../models/chat-model.js";
import { CHAT_MODEL_SPECIFICATION } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import { EMBEDDER_SPECIFICATION } from "../models/embedder.js";
import { markTemporal, searchTurnsWithHistory, withMissedTurns } from "../retrieval/history-recall.js";
import { InProcessRetriever, type RetrieverOptions } from "../retrieval/in-process-retriever.js";
import { DEFAULT_INDEX_BUDGET } from "../retrieval/index-cache.js";
import { checkRetriever, type Retriever } from "../retrieval/retriever.js";
import { searchedQuery } from "../retrieval/searched-query.js";
import { turnVectors } from "../retrieval/turn-embedding-text.js";
import type {
  ForgetReport,
  MemoryStore,
  OperationFilter,
  StoreStats,
  TurnFilter,
} from "../store/memory-store.js";
import { MEMORY_STORE_SPECIFICATION } from "../store/memory-store.js";
import { pendingOf, sameId } from "../store/pending-forget.js";
import { createStrategy, DEFAULT_STRATEGY, StrategyRegistry } from "../strategies/registry.js";
import type { Strategy } from "../strategies/strategy.js";
import {
  type ConversationInput,
  checkTurnLength,
  conversationInputSchema,
  conversationTime,
  DEFAULT_MAX_TURN_CHARS,
  type ForgetInput,
  forgetInputSchema,
  idSchema,
  MAX_TURN_CHARS,
  parseInput,
  perTurnSchema,
  type RecallInput,
  recallInputSchema,
  type SessionInput,
  sessionInputSchema,
  tenantSchema,
} from "./api.js";
import {
  checkConfig,
  type MemlaneConfig,
  resolveChat,
  resolveCognition,
  resolveEmbedder,
  resolveQueue,
  resolveRetriever,
  resolveStore,
} from "./config.js";
import { checkJobQueue, InProcessJobQueue, type JobQueue } from "./consolidation/job-queue.js";
import { Engine } from "./engine.js";
import { EventStream, type JobInfo, type MemlaneEvents } from "./events.js";
import { type ForgetListener, type ForgetNotice, forgetListenersOf } from "./forget/forget-listeners.js";
import { type TimelineView, walkTimeline } from "./history/timeline.js";
import { type Transcript, validateTranscript } from "./ingest/formats/transcript.js";
import {
  applyForgets,
  checkStored,
  emptyReport,
  type IngestOptions,
  type IngestReport,
  ingestTranscript,
} from "./ingest/ingest.js";
import { consoleLogger, type Logger } from "./logger.js";
import { newOperation } from "./operations.js";
import {
  INGEST_OPTIONS_FIELDS,
  MEMORY_FILTER_FIELDS,
  OPERATION_FILTER_FIELDS,
  RESUME_OPTIONS_FIELDS,
  RETRY_OPTIONS_FIELDS,
  TURN_FILTER_FIELDS,
} from "./option-fields.js";
import { type EngineParts, portsFor } from "./parts.js";
import {
  defaultRecallScope,
  heardOnly,
  isPrivateTurn,
  recallHearing,
  SESSION_SCOPE_KEY,
} from "./privacy/hearing.js";
import { parseReplyWindow, type ReplyWindow } from "./reply/reply-window.js";
import { Conversation } from "./session/conversation.js";
import { SessionHandle } from "./session/session-handle.js";
import type { PerTurnMode } from "./session/turn-path.js";
import { keepsStanding, withStanding } from "./standing/standing-memory.js";
import { TenantStore } from "./tenant-store.js";

/** @deprecated Use SessionInput. */
export type SessionOptions = SessionInput;
/** @deprecated Use RecallInput. */
export type RecallOptions = RecallInput;

/** A memory with its operations and versions: what `history()` returns. */
export interface HistoryView {
  memory: Memory;
  operations: Operation[];
  /** What replaced this memory (through Supersedes or FusedInto edges). */
  replacedBy: Memory[];
  /** What this memory replaced. */
  replaces: Memory[];
  edges: Edge[];
}

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

/** What `retry` ran again: per-turn work (by operation) and consolidation jobs. */
export interface RetryReport {
  turns: { op: string; ok: boolean }[];
  jobs: JobInfo[];
}

/** What `reindex` filled in. */
export interface ReindexReport {
  turns: number;
  memories: number;
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
  /** Default: one job at a time in this process. */
  queue?: JobQueue;
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
  indexBudget: true,
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
}

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
        embedder,
        cognition: checkCognition(options.cognition),
        chat: options.chat ? checkSpecification(options.chat, CHAT_MODEL_SPECIFICATION) : null,
        strategy: strategies.register(options.strategy),
        strategies,
        logger,
        events: new EventStream(logger),
        retriever: options.retriever
          ? checkRetriever(options.retriever)
          : new InProcessRetriever(store, embedder, retrieverOptions(options.indexBudget, logger)),
        maxTurnChars: parseInput(
          maxTurnCharsSchema,
          options.maxTurnChars ?? DEFAULT_MAX_TURN_CHARS,
          "maxTurnChars",
        ),
        replyWindow: parseReplyWindow(options.replyWindow),
        standing: parseInput(z.boolean(), options.standing ?? true, "standing"),
        queue: options.queue ? checkJobQueue(options.queue) : new InProcessJobQueue(),
      }),
      perTurn: parseInput(perTurnSchema, options.perTurn ?? "wait", "perTurn"),
      owned: options.owned ?? [],
      closing: null,
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
    const partners = [...new Set([...(input.partner ? [input.partner] : []), ...(input.partners ?? [])])];
    if (partners.includes(input.agent))
      throw new InvalidInputError("The agent cannot be its own partner", { field: "partners" });
    const strategy = input.strategy ? this.strategyNamed(input.strategy, "strategy") : this.parts.strategy;
    const at = input.at ? conversationTime(input.at, "at") : new Date().toISOString();
    const session = newSession(
      scope,
      partners,
      at,
      input.id ?? sessionId("s", at),
      input.scope ? { ...input.meta, [SESSION_SCOPE_KEY]: input.scope } : (input.meta ?? {}),
      strategy.name,
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
    const agents = [...new Set(input.agents)];
    if (agents.length < 2)
      throw new InvalidInputError("A conversation needs two different agents", { field: "agents" });
    for (const named of Object.keys(input.strategies ?? {}))
      if (!agents.includes(named))
        throw new InvalidInputError(`"${named}" is not an agent of this conversation`, {
          field: `strategies.${named}`,
        });
    // An agent takes part as an agent; named again as a person it would be two speakers in one.
    const both = (input.partners ?? []).find((p) => agents.includes(p));
    if (both !== undefined)
      throw new InvalidInputError(`"${both}" is an agent of this conversation, not a partner`, {
        field: "partners",
      });
    const people = [...new Set(input.partners ?? [])];
    const at = input.at ? conversationTime(input.at, "at") : new Date().toISOString();
    const id = input.id ?? sessionId("c", at);
    const targets = agents.map((agent) => {
      const scope = this.scope(agent);
      const strategy = input.strategies?.[agent]
        ? this.strategyNamed(input.strategies[agent], `strategies.${agent}`)
        : this.parts.strategy;
      const partners = [...agents.filter((a) => a !== agent), ...people];
      const meta = { ...input.meta, conversation: id, agents };
      return { scope, session: newSession(scope, partners, at, id, meta, strategy.name) };
    });
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
    const recallScope = input.scope ?? defaultRecallScope(strategy);
    const hearing = recallHearing(recallScope, input.about);
    // `about` names whom the recall is for: under partner scope what they may hear (their words
    // and the agent's to them), under agent scope everything but other partners' private memories.
    const { store } = this.parts;
    if (input.units === "turns") {
      const { hits, intent } = await searchTurnsWithHistory(this.parts.retriever, scope, {
        query,
        k: input.k ?? 10,
        now,
        hearing,
        isPrivate: isPrivateTurn,
      });
      return markTemporal({ strategy: "turns", query: input.query, hits, scope: recallScope }, intent);
    }
    const filter: MemoryFilter = { hearing };
    const remembered = await strategy.recall({
      ...portsFor(this.parts, scope),
      query,
      k: input.k,
      filter,
      now,
    });
    const found = keepsStanding(this.parts, strategy)
      ? await withStanding(this.parts, scope, remembered, input.about ? [input.about] : undefined, hearing)
      : remembered;
    const recall = input.turns
      ? {
          ...found,
          hits: await withMissedTurns(
            this.parts.retriever,
            scope,
            found.hits,
            { query, now, hearing, isPrivate: isPrivateTurn },
            input.turns,
            found.standing,
          ),
        }
      : found;
    const heard = {
      ...(await heardOnly(store, scope, recall, hearing)),
      scope: recallScope,
    };
    return query === input.query ? heard : { ...heard, query: input.query };
  }

  /** Active memories of an agent (all with `status: "any"`). */
  async memories(agent: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    refuseUnknownFields(filter, MEMORY_FILTER_FIELDS, "memories filter");
    return this.parts.store.listMemories(this.scope(agent), filter);
  }

  /** One memory of an agent, whatever its status; null when the agent has none with that id. */
  getMemory(agent: string, memoryId: string): Promise<Memory | null> {
    return this.parts.store.getMemory(this.scope(agent), memoryId);
  }

  /** The agent's sessions, oldest first. */
  sessions(agent: string): Promise<Session[]> {
    return this.parts.store.listSessions(this.scope(agent));
  }

  /** One session of an agent; null when the agent has none with that id. */
  getSession(agent: string, sessionId: string): Promise<Session | null> {
    return this.parts.store.getSession(this.scope(agent), sessionId);
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
    parseInput(idSchema, memoryId, "memoryId");
    const { store } = this.parts;
    const memory = await store.getMemory(scope, memoryId);
    if (!memory) throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`);
    const edges = await store.listEdges(scope, [memoryId]);
    // Supersedes points new -> old; FusedInto points old -> fused.
    const replacing = [
      ...edges.filter((e) => e.type === "Supersedes" && e.to === memoryId).map((e) => e.from),
      ...edges.filter((e) => e.type === "FusedInto" && e.from === memoryId).map((e) => e.to),
    ];
    const replaced = [
      ...edges.filter((e) => e.type === "Supersedes" && e.from === memoryId).map((e) => e.to),
      ...edges.filter((e) => e.type === "FusedInto" && e.to === memoryId).map((e) => e.from),
    ];
    const load = async (ids: string[]) =>
      ids.length ? store.listMemories(scope, { ids, status: "any" }) : [];
    return {
      memory,
      operations: await store.listOperations(scope, { memoryId }),
      replacedBy: await load(replacing),
      replaces: await load(replaced),
      edges,
    };
  }

  /** The memories linked to one (versions and relations) and the chain through it, oldest first. */
  async timeline(agent: string, memoryId: string): Promise<TimelineView> {
    const scope = this.scope(agent);
    parseInput(idSchema, memoryId, "memoryId");
    if (!(await this.parts.store.getMemory(scope, memoryId)))
      throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`);
    return walkTimeline(this.parts.store, scope, memoryId);
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
    const scope = this.scope(input.agent);
    // A name from another tenant, or a typo, is not found: never a silent "forgot nothing".
    if (input.memoryIds) {
      const found = new Set(
        (await this.parts.store.listMemories(scope, { ids: input.memoryIds, status: "any" })).map(
          (m) => m.id,
        ),
      );
      const missing = input.memoryIds.find((id) => !found.has(id));
      if (missing !== undefined)
        throw new NotFoundError(`No memory "${missing}" for agent "${input.agent}"`, { field: "memoryIds" });
    }
    // Those holding transcripts not stored yet hear of the forget before anything is erased, so a
    // session they store from now on lacks what goes; what they hold may be named (the store
    // refuses a session or a person it finds nowhere).
    const listeners = forgetListenersOf(this.engine).of(this.tenantId);
    const notice: ForgetNotice = {
      tenant: this.tenantId,
      agent: scope.agent,
      ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
      ...(input.about === undefined ? {} : { about: input.about }),
    };
    const pending = { people: [] as string[], sessions: [] as string[] };
    for (const l of listeners) {
      const held = l.pending?.(scope.agent);
      pending.people.push(...(held?.people ?? []));
      pending.sessions.push(...(held?.sessions ?? []));
    }
    // Their name may be looked for in the agent's words only when the person is one it knows.
    if (input.about !== undefined) {
      const about = input.about;
      const stored = await this.parts.store.listSessions(scope);
      const people = [
        ...stored.flatMap((x) => x.partners),
        ...stored.flatMap((x) => (Array.isArray(x.meta.agents) ? x.meta.agents.map(String) : [])),
        ...pending.people,
      ];
      notice.known = people.some((p) => p !== scope.agent && sameId(p, about));
    }
    if (notice.sessionId !== undefined || notice.about !== undefined)
      for (const l of listeners) l.starting?.(notice);
    // The log says that a forget happened, never what or whom it erased (a hash of a name is
    // reversed by a list of names): only which kind of request it was, and counts.
    const record = (counts: ForgetReport): Operation =>
      newOperation(scope, this.parts.strategy.name, "none", null, new Date().toISOString(), {
        type: "FORGET",
        inputs: {
          about: input.about !== undefined,
          memories: input.memoryIds?.length ?? 0,
          session: input.sessionId ?? null,
        },
        outputs: counts,
      });
    let op: Operation | undefined;
    const report = await this.parts.store.forget(scope, {
      ...input,
      pending,
      // Written in the erase's transaction: a forget is never done without its record, nor recorded undone.
      record: (counts) => {
        op = record(counts);
        return op;
      },
    });
    // A store written for the port before the record moved into the erase writes none: then it is
    // written after, as it was.
    if (!op) {
      op = record(report);
      await this.parts.store.write(scope, { operations: [op] });
    }
    if (notice.sessionId !== undefined || notice.about !== undefined)
      for (const l of listeners) await l.erased?.(notice);
    this.parts.events.emit("operation", op);
    return report;
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
    return this.engine.waiting(this.scope(agent));
  }

  /** Failed consolidations and per-turn work that still wait for a retry. */
  failures(agent: string): Promise<Operation[]> {
    return this.engine.failures(this.scope(agent));
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
    const { turns, jobs } = await this.engine.retry(scope, session, options);
    if (session !== undefined && turns.length === 0 && jobs.length === 0)
      throw new NotFoundError(`Session "${session}" is not waiting for a retry`);
    return { turns, jobs };
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
    const valid = transcripts.map((t, i) =>
      validateTranscript(t, transcripts.length > 1 ? `transcript [${i}]` : "transcript"),
    );
    for (const [i, t] of valid.entries())
      for (const [j, s] of t.sessions.entries())
        for (const [k, turn] of s.turns.entries())
          checkTurnLength(
            turn.text,
            this.parts.maxTurnChars,
            `${valid.length > 1 ? `transcript [${i}].` : ""}sessions[${j}].turns[${k}].text`,
          );
    // Two transcripts of one file naming the same session must agree too, before anything is
    // written; a session that appears again with the same turns is the same session, ingested once.
    const seen = new Map<string, string>();
    for (const t of valid)
      t.sessions = t.sessions.filter((s) => {
        const key = compositeKey(t.agent, s.id);
        const content = JSON.stringify(s.turns.map((x) => [x.speaker, x.text]));
        if (seen.has(key) && seen.get(key) !== content)
          throw new ConflictError(`Session "${s.id}" of "${t.agent}" appears twice with different turns`, {
            session: s.id,
          });
        const again = seen.has(key);
        seen.set(key, content);
        return !again;
      });
    return valid;
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
    // A forget of this tenant while the ingest runs reaches the sessions it has yet to store, and
    // may name what only this ingest holds.
    const forgets: ForgetNotice[] = [];
    const stopListening = this.onForget({
      starting: (notice) => forgets.push(notice),
      pending: (agent) => pendingOf(valid, agent),
    });
    const ports = {
      parts: this.parts,
      turns: this.engine.turns,
      scope: (a: string) => this.scope(a),
      strategy: this.parts.strategy.name,
      forgets,
    };
    try {
      return await this.ingestChecked(valid, ports, options);
    } finally {
      stopListening();
    }
  }

  private async ingestChecked(
    valid: Transcript[],
    ports: Parameters<typeof checkStored>[0],
    options: IngestOptions,
  ): Promise<IngestReport[]> {
    const checked = [];
    for (const t of valid) {
      applyForgets(ports, t);
      checked.push(await checkStored(ports, t));
    }

    const reports: IngestReport[] = [];
    for (const [i, t] of valid.entries()) {
      const report = await ingestTranscript(ports, t, options, checked[i]);
      reports.push(report);
      // A model that cannot be reached stops the whole run, not just one transcript.
      if (report.stopped) {
        for (const rest of valid.slice(i + 1))
          reports.push({
            ...emptyReport(rest.agent, rest.sessions.length),
            notAttempted: rest.sessions.length,
            stopped: report.stopped,
          });
        break;
      }
    }
    return reports;
  }

  /**
   * Stores the vectors an agent's turns and memories lack under the current embedder (written by
   * an older memlane, or under another model). Reads never fill them; this does, in one write.
   */
  async reindex(agent: string): Promise<ReindexReport> {
    const scope = this.scope(agent);
    const { store, embedder } = this.parts;
    const { fresh } = await turnVectors(store, scope, embedder, await store.listTurns(scope));
    const memories = await store.listMemories(scope, { status: "any" });
    const stored = await store.getEmbeddings(
      scope,
      "memory",
      memories.map((m) => m.id),
      embedder.name,
    );
    const missing = memories.filter((m) => !stored.has(m.id));
    const vectors = await embedder.embed(missing.map((m) => m.text));
    const records = missing.map((m, i) => ({
      ownerKind: "memory" as const,
      ownerId: m.id,
      model: embedder.name,
      vector: vectors[i]!,
    }));
    if (fresh.length || records.length) await store.write(scope, { embeddings: [...fresh, ...records] });
    return { turns: fresh.length, memories: records.length };
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

/**
 * Opens memlane: a store, a strategy, an embedder and a cognition engine (offline unless a chat
 * model is set), from names or instances.
 * @example const mem = await openMemlane({ store: "sqlite:./memlane.db", strategy: "carecall" });
 * @throws {InvalidInputError} an unknown option (`details.field` names it), or an unknown strategy, embedder or cognition name
 * @throws {UnsupportedError} a port instance of another specification version
 * @throws {StoreUnavailableError} the database cannot be opened
 */
export async function openMemlane(config: MemlaneConfig = {}): Promise<Memlane> {
  checkConfig(config);
  parseInput(tenantSchema, config.tenant ?? "default", "tenant");
  const registered = config.strategies ?? [];
  const strategy =
    typeof config.strategy === "object"
      ? config.strategy
      : (registered.find((s) => s.name === config.strategy) ??
        createStrategy(config.strategy ?? DEFAULT_STRATEGY));
  const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
  const chat = resolveChat(config.chat);
  const cognition = resolveCognition(config, chat, embedder);
  const store = await resolveStore(config.store, config);
  return new Memlane({
    tenant: config.tenant,
    store,
    cognition,
    embedder,
    chat,
    strategy,
    strategies: registered,
    logger: config.logger,
    retriever: resolveRetriever(
      config.retriever,
      store,
      embedder,
      retrieverOptions(config.indexBudget, config.logger ?? consoleLogger),
    ),
    queue: await resolveQueue(config),
    perTurn: config.perTurn,
    maxTurnChars: config.maxTurnChars,
    indexBudget: config.indexBudget,
    replyWindow: config.replyWindow,
    standing: config.standing,
    // An embedder built here from a name is ours to close; one passed in belongs to the caller.
    owned: typeof config.embedder === "object" ? [] : [embedder],
  });
}

/** A new session id: a prefix, the conversation time, and a random tail. */
function sessionId(prefix: string, at: string): string {
  return `${prefix}-${at.slice(0, 19).replace(/[-:T]/g, "")}-${Math.random().toString(36).slice(2, 6)}`;
}

function newSession(
  scope: Scope,
  partners: string[],
  at: string,
  id: string,
  meta: Record<string, unknown>,
  strategy: string,
): Session {
  return {
    id,
    tenant: scope.tenant,
    agent: scope.agent,
    partners,
    at,
    status: "open",
    strategy,
    meta,
    recordedAt: new Date().toISOString(),
  };
}

/** The default retriever's options: the index budget, and rebuilds said in the log. */
function retrieverOptions(indexBudget: number | undefined, logger: Logger): RetrieverOptions {
  return {
    budget: parseInput(indexBudgetSchema, indexBudget ?? DEFAULT_INDEX_BUDGET, "indexBudget"),
    onRebuild: (scope, kind, reason) =>
      // A log pruned past an index is worth a warning; a delta too large to be worth applying is not.
      (reason.startsWith("the change log") ? logger.warn : logger.debug)(
        `search index of ${kind} built again instead of updated: ${reason}`,
        { tenant: scope.tenant, agent: scope.agent },
      ),
  };
}

const maxTurnCharsSchema = z.number().int().min(1).max(MAX_TURN_CHARS);
const indexBudgetSchema = z.number().int().min(0);
