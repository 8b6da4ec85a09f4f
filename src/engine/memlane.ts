/**
 * The facade users hold (ARCHITECTURE.md §4): sessions, conversations between agents, turns,
 * replies, background consolidation, recall, history, timelines, forgetting, ingest and an event
 * stream — every call validated with its schema (api.ts) and scoped to this view's tenant.
 * `mem.tenant("acme")` is a view of the same engine in another tenant: same store, caches and
 * queue, nothing crossing between tenants.
 */
import { InvalidInputError, NotFoundError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { parseConversationTime } from "../core/time.js";
import type { Edge, Memory, MemoryFilter, Operation, Scope, Session } from "../core/types.js";
import { CachedEmbedder } from "../models/cached-embedder.js";
import { InProcessRetriever } from "../retrieval/in-process-retriever.js";
import { checkRetriever } from "../retrieval/retriever.js";
import { turnVectors } from "../retrieval/turn-embedding-text.js";
import type { ForgetReport, StoreStats } from "../store/memory-store.js";
import { DEFAULT_STRATEGY, StrategyRegistry } from "../strategies/registry.js";
import {
  type ConversationInput,
  conversationInputSchema,
  type ForgetInput,
  forgetInputSchema,
  idSchema,
  parseInput,
  type RecallInput,
  recallInputSchema,
  type SessionInput,
  sessionInputSchema,
  tenantSchema,
} from "./api.js";
import {
  type MemlaneConfig,
  resolveChat,
  resolveCognition,
  resolveEmbedder,
  resolveStore,
} from "./config.js";
import { Conversation } from "./conversation.js";
import { Engine } from "./engine.js";
import { EventStream, type JobInfo, type MemlaneEvents } from "./events.js";
import { validateTranscript } from "./formats/transcript.js";
import { type IngestOptions, type IngestReport, ingestTranscript } from "./ingest.js";
import { checkJobQueue, InProcessJobQueue } from "./job-queue.js";
import { consoleLogger } from "./logger.js";
import { newOperation } from "./operations.js";
import type { EngineParts } from "./parts.js";
import { SessionHandle } from "./session-handle.js";
import { type TimelineView, walkTimeline } from "./timeline.js";
import type { PerTurnMode } from "./turn-path.js";

/** @deprecated Use SessionInput. */
export type SessionOptions = SessionInput;
/** @deprecated Use RecallInput. */
export type RecallOptions = RecallInput;

export interface HistoryView {
  memory: Memory;
  operations: Operation[];
  /** What replaced this memory (through Supersedes or FusedInto edges). */
  replacedBy: Memory[];
  /** What this memory replaced. */
  replaces: Memory[];
  edges: Edge[];
}

export interface InspectView extends StoreStats {
  agent: string;
  strategy: string;
  cognition: string;
  embedder: string;
  sessionList: Session[];
  failures: Operation[];
  jobs: JobInfo[];
}

/** What `reindex` filled in. */
export interface ReindexReport {
  turns: number;
  memories: number;
}

export interface MemlaneOptions extends EngineParts {
  /** The tenant this view works in. Default "default". */
  tenant?: string;
  /** How `session.turn()` treats per-turn work unless a session or turn says otherwise. Default "wait". */
  perTurn?: PerTurnMode;
  /** Resources this engine made and must release on close (the embedder's worker threads). */
  owned?: { close(): Promise<void> }[];
}

interface Shared {
  engine: Engine;
  perTurn: PerTurnMode;
  owned: { close(): Promise<void> }[];
  closed: boolean;
}

export class Memlane {
  /** The tenant every call of this view works in. */
  readonly tenantId: string;
  private readonly shared: Shared;

  /**
   * An engine over the given ports (openMemlane builds them from strings). Every view made with
   * `tenant()` shares them.
   */
  constructor(options: MemlaneOptions | { view: Shared; tenant: string }) {
    if ("view" in options) {
      this.shared = options.view;
      this.tenantId = options.tenant;
      return;
    }
    this.tenantId = parseInput(tenantSchema, options.tenant ?? "default", "tenant");
    this.shared = {
      engine: new Engine(options),
      perTurn: options.perTurn ?? "wait",
      owned: options.owned ?? [],
      closed: false,
    };
  }

  private get engine(): Engine {
    return this.shared.engine;
  }

  private get parts(): EngineParts {
    return this.shared.engine.parts;
  }

  /** The store this engine writes to (shared by every tenant view). */
  get store() {
    return this.parts.store;
  }

  /** The engine's default strategy. */
  get strategy() {
    return this.parts.strategy;
  }

  get cognition() {
    return this.parts.cognition;
  }

  get embedder() {
    return this.parts.embedder;
  }

  get chat() {
    return this.parts.chat;
  }

  /**
   * The same engine in another tenant: every call of the view reads and writes that tenant only;
   * store, caches, queue and events are shared. Cheap: make one per request.
   * @example const acme = mem.tenant("acme"); await acme.recall({ agent: "ava", query: "pets?" });
   */
  tenant(name: string): Memlane {
    return new Memlane({ view: this.shared, tenant: parseInput(tenantSchema, name, "tenant") });
  }

  /** The scope of one agent in this tenant. @throws {InvalidInputError} a missing or blank agent */
  scope(agent: string): Scope {
    return { tenant: this.tenantId, agent: parseInput(idSchema, agent, "agent") };
  }

  /**
   * Subscribes to recorded operations ("operation") or background jobs ("job") of every tenant;
   * filter on `tenant` in the payload. A listener that throws is reported to the logger.
   */
  on<K extends keyof MemlaneEvents>(event: K, listener: (payload: MemlaneEvents[K]) => void): () => void {
    return this.parts.events.on(event, listener);
  }

  /**
   * Starts a session and stores it right away (status "open").
   * @example const s = await mem.session({ agent: "ava", partner: "sam", at: "2024-03-02T18:00" });
   * @throws {InvalidInputError} a missing agent or partner, the agent as its own partner, a bad time
   * @throws {ConflictError} the id is taken
   */
  async session(options: SessionInput): Promise<SessionHandle> {
    const input = parseInput(sessionInputSchema, options, "session");
    const scope = this.scope(input.agent);
    const partners = [...new Set([...(input.partner ? [input.partner] : []), ...(input.partners ?? [])])];
    if (partners.includes(input.agent))
      throw new InvalidInputError("The agent cannot be its own partner", { field: "partners" });
    const strategy = input.strategy ? this.parts.strategies.get(input.strategy) : this.parts.strategy;
    const session = this.newSession(scope, partners, input.at, input.id, input.meta ?? {}, strategy.name);
    await this.parts.store.write(scope, { sessions: [session] });
    return new SessionHandle(this.engine, scope, session, input.perTurn ?? this.shared.perTurn);
  }

  /**
   * A conversation between two or more agents of this tenant (and optionally people): each agent
   * keeps its own session, consolidated by its own strategy, and each utterance is added once.
   */
  async conversation(options: ConversationInput): Promise<Conversation> {
    const input = parseInput(conversationInputSchema, options, "conversation");
    const agents = [...new Set(input.agents)];
    if (agents.length < 2)
      throw new InvalidInputError("A conversation needs two different agents", { field: "agents" });
    const people = [...new Set(input.partners ?? [])].filter((p) => !agents.includes(p));
    const at = input.at ? parseConversationTime(input.at) : new Date().toISOString();
    const id =
      input.id ?? `c-${at.slice(0, 19).replace(/[-:T]/g, "")}-${Math.random().toString(36).slice(2, 6)}`;
    const sessions = agents.map((agent) => {
      const scope = this.scope(agent);
      const strategy = this.parts.strategies.get(input.strategies?.[agent] ?? this.parts.strategy.name);
      const partners = [...agents.filter((a) => a !== agent), ...people];
      return {
        scope,
        session: this.newSession(
          scope,
          partners,
          at,
          id,
          { ...input.meta, conversation: id, agents },
          strategy.name,
        ),
      };
    });
    await this.parts.store.writeMany(
      sessions.map((s) => ({ scope: s.scope, batch: { sessions: [s.session] } })),
    );
    const mode = input.perTurn ?? this.shared.perTurn;
    const handles = new Map(
      sessions.map((s) => [s.scope.agent, new SessionHandle(this.engine, s.scope, s.session, mode)]),
    );
    return new Conversation(this.engine, id, handles, mode);
  }

  private newSession(
    scope: Scope,
    partners: string[],
    at: string | undefined,
    id: string | undefined,
    meta: Record<string, unknown>,
    strategy: string,
  ): Session {
    const time = at ? parseConversationTime(at) : new Date().toISOString();
    return {
      id: id ?? `s-${time.slice(0, 19).replace(/[-:T]/g, "")}-${Math.random().toString(36).slice(2, 6)}`,
      tenant: scope.tenant,
      agent: scope.agent,
      partners,
      at: time,
      status: "open",
      strategy,
      meta,
      recordedAt: new Date().toISOString(),
    };
  }

  /** Picks up an open session (after a restart, or in another request of a server). */
  async resume(
    agent: string,
    sessionId: string,
    options: { perTurn?: PerTurnMode } = {},
  ): Promise<SessionHandle> {
    const scope = this.scope(agent);
    const session = await this.parts.store.getSession(scope, sessionId);
    if (!session) throw new NotFoundError(`No session "${sessionId}" for agent "${agent}"`);
    if (session.status !== "open")
      throw new InvalidInputError(`Session "${sessionId}" is ${session.status}, not open`, {
        field: "sessionId",
      });
    return new SessionHandle(this.engine, scope, session, options.perTurn ?? this.shared.perTurn);
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
    const now = input.now === undefined ? undefined : parseConversationTime(input.now);
    if (input.units === "turns") {
      const hits = await this.parts.retriever.searchTurns(scope, {
        query: input.query,
        k: input.k ?? 10,
        speaker: input.about,
        now,
      });
      return { strategy: "turns", query: input.query, hits };
    }
    const filter: MemoryFilter = input.about ? { about: input.about } : {};
    const strategy = input.strategy ? this.parts.strategies.get(input.strategy) : this.parts.strategy;
    return strategy.recall({
      scope,
      store: this.parts.store,
      cognition: this.parts.cognition,
      embedder: this.parts.embedder,
      retriever: this.parts.retriever,
      query: input.query,
      k: input.k,
      filter,
      now,
    });
  }

  /** Active memories of an agent (all with `status: "any"`). */
  memories(agent: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    return this.parts.store.listMemories(this.scope(agent), filter);
  }

  /** A memory with every operation on it and what it replaced or was replaced by. @throws {NotFoundError} */
  async history(agent: string, memoryId: string): Promise<HistoryView> {
    const scope = this.scope(agent);
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
    if (!(await this.parts.store.getMemory(scope, memoryId)))
      throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`);
    return walkTimeline(this.parts.store, scope, memoryId);
  }

  /**
   * Deletes for real (the only erasing path) and records that it happened, without content.
   * @example await mem.forget({ agent: "ava", about: "sam" });
   */
  async forget(options: ForgetInput): Promise<ForgetReport> {
    const input = parseInput(forgetInputSchema, options, "forget");
    const scope = this.scope(input.agent);
    const report = await this.parts.store.forget(scope, input);
    const op = newOperation(scope, this.parts.strategy.name, "none", null, new Date().toISOString(), {
      type: "FORGET",
      inputs: {
        about: input.about ?? null,
        memories: input.memoryIds?.length ?? 0,
        session: input.sessionId ?? null,
      },
      outputs: report,
    });
    await this.parts.store.write(scope, { operations: [op] });
    this.parts.events.emit("operation", op);
    return report;
  }

  /** Failed consolidations and per-turn work that still wait for a retry. */
  failures(agent: string): Promise<Operation[]> {
    return this.engine.failures(this.scope(agent));
  }

  /**
   * Runs again every failed per-turn work of an agent, then every failed or interrupted
   * consolidation (or just those of one session). Returns the consolidation jobs.
   * @throws {NotFoundError} `sessionId` has nothing waiting
   */
  async retry(agent: string, sessionId?: string): Promise<JobInfo[]> {
    const scope = this.scope(agent);
    const { turns, jobs } = await this.engine.retry(scope, sessionId);
    if (sessionId && turns.length === 0 && jobs.length === 0)
      throw new NotFoundError(`Session "${sessionId}" is not waiting for a retry`);
    return jobs;
  }

  /**
   * Stores and consolidates a transcript, session by session; resumable. The transcript is
   * validated first (InvalidInputError naming the field); nothing is stored when it is not valid.
   */
  async ingest(transcript: unknown, options: IngestOptions = {}): Promise<IngestReport> {
    const valid = validateTranscript(transcript);
    return ingestTranscript(
      { parts: this.parts, scope: (a) => this.scope(a), strategy: this.parts.strategy.name },
      valid,
      options,
    );
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

  async inspect(agent: string): Promise<InspectView> {
    const scope = this.scope(agent);
    return {
      agent,
      strategy: this.parts.strategy.name,
      cognition: this.parts.cognition.name,
      embedder: this.parts.embedder.name,
      ...(await this.parts.store.stats(scope)),
      sessionList: await this.parts.store.listSessions(scope),
      failures: await this.failures(agent),
      jobs: this.jobs().filter((j) => j.agent === agent),
    };
  }

  /**
   * Waits for background work, then closes the store and what the engine created. Closes the
   * engine for every tenant view; a second call does nothing.
   */
  async close(): Promise<void> {
    if (this.shared.closed) return;
    this.shared.closed = true;
    await this.idle();
    await this.parts.queue.close?.();
    await this.parts.store.close();
    for (const resource of this.shared.owned) await resource.close();
  }
}

/**
 * Opens memlane: a store, a strategy, an embedder and a cognition engine (offline unless a chat
 * model is set), from names or instances.
 * @example const mem = await openMemlane({ store: "sqlite:./memlane.db", strategy: "carecall" });
 * @throws {InvalidInputError} an unknown strategy, embedder or cognition name
 * @throws {UnsupportedError} a port instance of another specification version
 * @throws {StoreUnavailableError} the database cannot be opened
 */
export async function openMemlane(config: MemlaneConfig = {}): Promise<Memlane> {
  const tenant = parseInput(tenantSchema, config.tenant ?? "default", "tenant");
  const strategies = new StrategyRegistry(config.strategies ?? []);
  const strategy =
    typeof config.strategy === "object"
      ? strategies.register(config.strategy)
      : strategies.get(config.strategy ?? DEFAULT_STRATEGY);
  const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
  const chat = resolveChat(config.chat);
  const cognition = resolveCognition(config, chat, embedder);
  const store = resolveStore(config.store);
  const logger = config.logger ?? consoleLogger;
  return new Memlane({
    tenant,
    store,
    cognition,
    embedder,
    chat,
    strategy,
    strategies,
    logger,
    events: new EventStream(logger),
    retriever: config.retriever ? checkRetriever(config.retriever) : new InProcessRetriever(store, embedder),
    queue: config.queue ? checkJobQueue(config.queue) : new InProcessJobQueue(),
    perTurn: config.perTurn,
    // An embedder built here from a name is ours to close; one passed in belongs to the caller.
    owned: typeof config.embedder === "object" ? [] : [embedder],
  });
}
