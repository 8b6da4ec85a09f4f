/**
 * The facade users hold (ARCHITECTURE.md §4): sessions, turns, replies, background
 * consolidation, recall, history, timelines, forgetting, ingest and an event stream.
 */
import type { Cognition } from "../cognition/cognition.js";
import { InvalidInputError, NotFoundError } from "../core/errors.js";
import type { Recall } from "../core/recall.js";
import { parseConversationTime } from "../core/time.js";
import {
  addUsage,
  type Edge,
  type Memory,
  type MemoryFilter,
  type Operation,
  type Scope,
  type Session,
  type Turn,
} from "../core/types.js";
import { CachedEmbedder } from "../models/cached-embedder.js";
import type { ChatModel } from "../models/chat-model.js";
import type { Embedder } from "../models/embedder.js";
import { Retriever } from "../retrieval/retriever.js";
import type { ForgetReport, MemoryStore, StoreStats } from "../store/memory-store.js";
import { createStrategy, DEFAULT_STRATEGY } from "../strategies/registry.js";
import type { Strategy, StrategyPorts } from "../strategies/strategy.js";
import {
  type MemlaneConfig,
  resolveChat,
  resolveCognition,
  resolveEmbedder,
  resolveStore,
} from "./config.js";
import { Consolidator, newOperation } from "./consolidator.js";
import { EventStream, type JobInfo, type MemlaneEvents } from "./events.js";
import type { Transcript } from "./formats/transcript.js";
import { type IngestOptions, type IngestReport, ingestTranscript } from "./ingest.js";
import { SessionHandle, type SessionHost } from "./session-handle.js";
import { type TimelineView, walkTimeline } from "./timeline.js";

export interface SessionOptions {
  agent: string;
  /** The one partner of a one-to-one session. */
  partner?: string;
  partners?: string[];
  /** Conversation time; default now. ISO-8601 or LoCoMo's "1:56 pm on 8 May, 2023". */
  at?: string;
  id?: string;
  meta?: Record<string, unknown>;
}

export interface RecallOptions {
  agent: string;
  query: string;
  /** Only memories about this subject. */
  about?: string;
  /** How many hits; default the strategy's own (5 for carecall and accumulate, 3 for theanine). */
  k?: number;
  /** Strategy to recall with; default the engine's. */
  strategy?: string;
  /**
   * What to retrieve: the strategy's memories (default) or the raw turns of every session, ranked
   * by the hybrid turn search (`about` then means the speaker; k defaults to 10).
   */
  units?: "memories" | "turns";
  /**
   * The conversation's present, for questions like "what did Sam do last month?" (ISO-8601 or
   * LoCoMo's form); default the newest memory's (or turn's) time.
   */
  now?: string;
}

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

const MAX_K = 100;

export class Memlane implements SessionHost {
  readonly tenant: string;
  readonly strategy: Strategy;
  private readonly retriever: Retriever;
  private readonly consolidator: Consolidator;
  private readonly events = new EventStream();
  private readonly strategies = new Map<string, Strategy>();

  constructor(
    readonly store: MemoryStore,
    readonly cognition: Cognition,
    readonly embedder: Embedder,
    strategy: Strategy,
    tenant: string,
    readonly chat: ChatModel | null = null,
  ) {
    this.tenant = tenant;
    this.strategy = strategy;
    this.strategies.set(strategy.name, strategy);
    this.retriever = new Retriever(store, embedder);
    this.consolidator = new Consolidator({
      store,
      cognition,
      embedder,
      retriever: this.retriever,
      events: this.events,
      strategyFor: (name) => this.strategyNamed(name),
    });
  }

  private strategyNamed(name: string): Strategy {
    let s = this.strategies.get(name);
    if (!s) {
      s = createStrategy(name);
      this.strategies.set(name, s);
    }
    return s;
  }

  scope(agent: string): Scope {
    if (!agent?.trim())
      throw new InvalidInputError("An agent is required: every read and write is scoped to one");
    return { tenant: this.tenant, agent };
  }

  private ports(scope: Scope): StrategyPorts {
    return {
      scope,
      store: this.store,
      cognition: this.cognition,
      embedder: this.embedder,
      retriever: this.retriever,
    };
  }

  /** Subscribes to recorded operations ("operation") or background jobs ("job"). */
  on<K extends keyof MemlaneEvents>(event: K, listener: (payload: MemlaneEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Starts a session and stores it right away (status "open"). */
  async session(options: SessionOptions): Promise<SessionHandle> {
    const scope = this.scope(options.agent);
    const partners = [...new Set(options.partners ?? (options.partner ? [options.partner] : []))];
    if (partners.length === 0) throw new InvalidInputError("A session needs a partner (or partners)");
    if (partners.includes(options.agent)) throw new InvalidInputError("The agent cannot be its own partner");
    const at = options.at ? parseConversationTime(options.at) : new Date().toISOString();
    const session: Session = {
      id:
        options.id ?? `s-${at.slice(0, 19).replace(/[-:T]/g, "")}-${Math.random().toString(36).slice(2, 6)}`,
      tenant: scope.tenant,
      agent: scope.agent,
      partners,
      at,
      status: "open",
      strategy: this.strategy.name,
      meta: options.meta ?? {},
      recordedAt: new Date().toISOString(),
    };
    await this.store.write(scope, { sessions: [session] });
    return new SessionHandle(this, scope, session);
  }

  /** Picks up an open session (for example after a restart). */
  async resume(agent: string, sessionId: string): Promise<SessionHandle> {
    const scope = this.scope(agent);
    const session = await this.store.getSession(scope, sessionId);
    if (!session) throw new NotFoundError(`No session "${sessionId}" for agent "${agent}"`);
    if (session.status !== "open")
      throw new InvalidInputError(`Session "${sessionId}" is ${session.status}, not open`);
    return new SessionHandle(this, scope, session, await this.store.listTurns(scope, { sessionId }));
  }

  async writeTurn(scope: Scope, turn: Turn): Promise<void> {
    await this.store.write(scope, { turns: [turn] });
  }

  async afterTurn(scope: Scope, session: Session, turn: Turn, dialogue: Turn[]): Promise<void> {
    const strategy = this.strategyNamed(session.strategy);
    if (!strategy.onTurn) return;
    const staged: Parameters<StrategyPorts["store"]["write"]>[1][] = [];
    await strategy.onTurn({ ...this.ports(scope), session, turn, dialogue, stage: (b) => staged.push(b) });
    for (const batch of staged) await this.store.write(scope, batch);
  }

  async reply(
    scope: Scope,
    session: Session,
    dialogue: Turn[],
    query?: string,
  ): Promise<{ text: string; recall: Recall }> {
    const partner =
      [...dialogue].reverse().find((t) => t.speaker !== scope.agent)?.speaker ?? session.partners[0]!;
    const q = query ?? [...dialogue].reverse().find((t) => t.speaker !== scope.agent)?.text ?? "";
    const strategy = this.strategyNamed(session.strategy);
    const recall = q.trim()
      ? await strategy.recall({ ...this.ports(scope), query: q, session, dialogue })
      : { strategy: strategy.name, query: q, hits: [] };
    const prompt = strategy.compose({ scope, session, partner, dialogue }, recall);
    const result = await this.cognition.reply({
      agent: scope.agent,
      partner,
      at: dialogue.at(-1)?.at ?? session.at,
      dialogue,
      recall,
      prompt,
    });
    const op = newOperation(
      scope,
      strategy.name,
      result.model,
      session.id,
      dialogue.at(-1)?.at ?? session.at,
      {
        type: "REPLY",
        memoryIds: recall.hits.filter((h) => h.kind === "memory").map((h) => h.id),
        inputs: { query: q },
        outputs: { text: result.value },
        rationale: result.rationale ?? null,
        usage: recall.usage ? addUsage(recall.usage, result.usage) : result.usage,
      },
    );
    await this.store.write(scope, { operations: [op] });
    this.events.emit("operation", op);
    return { text: result.value, recall };
  }

  async closeSession(scope: Scope, session: Session): Promise<{ job: JobInfo; done: Promise<JobInfo> }> {
    await this.store.write(scope, { sessionStatus: [{ id: session.id, status: "closed" }] });
    return this.consolidator.enqueue(scope, session.id);
  }

  /** Resolves when every queued consolidation has run. */
  idle(): Promise<void> {
    return this.consolidator.idle();
  }

  /** Background jobs of this process, newest last. */
  jobs(): JobInfo[] {
    return this.consolidator.jobs();
  }

  /** What the strategy remembers for a query. Empty when the scope holds nothing. */
  async recall(options: RecallOptions): Promise<Recall> {
    const scope = this.scope(options.agent);
    if (!options.query?.trim()) throw new InvalidInputError("recall needs a non-empty query");
    const k = options.k === undefined ? undefined : Math.min(Math.max(1, Math.floor(options.k)), MAX_K);
    const now = options.now === undefined ? undefined : parseConversationTime(options.now);
    if (options.units === "turns") {
      const hits = await this.retriever.searchTurns(scope, {
        query: options.query,
        k: k ?? 10,
        speaker: options.about,
        now,
      });
      return { strategy: "turns", query: options.query, hits };
    }
    if (options.units !== undefined && options.units !== "memories")
      throw new InvalidInputError(`units must be "memories" or "turns", not "${options.units}"`);
    const filter: MemoryFilter = options.about ? { about: options.about } : {};
    const strategy = options.strategy ? this.strategyNamed(options.strategy) : this.strategy;
    return strategy.recall({ ...this.ports(scope), query: options.query, k, filter, now });
  }

  /** Active (or all, with status "any") memories of an agent. */
  memories(agent: string, filter: MemoryFilter = {}): Promise<Memory[]> {
    return this.store.listMemories(this.scope(agent), filter);
  }

  /** A memory with every operation on it and what it replaced or was replaced by. */
  async history(agent: string, memoryId: string): Promise<HistoryView> {
    const scope = this.scope(agent);
    const memory = await this.store.getMemory(scope, memoryId);
    if (!memory) throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`);
    const edges = await this.store.listEdges(scope, [memoryId]);
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
      ids.length ? this.store.listMemories(scope, { ids, status: "any" }) : [];
    return {
      memory,
      operations: await this.store.listOperations(scope, { memoryId }),
      replacedBy: await load(replacing),
      replaces: await load(replaced),
      edges,
    };
  }

  /** The memories linked to one (versions and relations) and the chain through it, oldest first. */
  async timeline(agent: string, memoryId: string): Promise<TimelineView> {
    const scope = this.scope(agent);
    if (!(await this.store.getMemory(scope, memoryId)))
      throw new NotFoundError(`No memory "${memoryId}" for agent "${agent}"`);
    return walkTimeline(this.store, scope, memoryId);
  }

  /** Deletes for real (the only erasing path) and records that it happened, without content. */
  async forget(options: {
    agent: string;
    about?: string;
    memoryIds?: string[];
    sessionId?: string;
  }): Promise<ForgetReport> {
    const scope = this.scope(options.agent);
    const report = await this.store.forget(scope, options);
    const op = newOperation(scope, this.strategy.name, "none", null, new Date().toISOString(), {
      type: "FORGET",
      inputs: {
        about: options.about ?? null,
        memories: options.memoryIds?.length ?? 0,
        session: options.sessionId ?? null,
      },
      outputs: report,
    });
    await this.store.write(scope, { operations: [op] });
    this.events.emit("operation", op);
    return report;
  }

  /** Consolidations that failed and still wait for a retry. */
  async failures(agent: string): Promise<Operation[]> {
    const scope = this.scope(agent);
    const failed = new Set((await this.store.listSessions(scope, { status: "failed" })).map((s) => s.id));
    return (await this.store.listOperations(scope, { status: "failed" })).filter(
      (o) => o.sessionId && failed.has(o.sessionId),
    );
  }

  /** Consolidates again every failed or interrupted session of an agent (or just one). */
  async retry(agent: string, sessionId?: string): Promise<JobInfo[]> {
    const scope = this.scope(agent);
    const sessions = await this.store.listSessions(scope, { status: ["failed", "closed"] });
    const chosen = sessionId ? sessions.filter((s) => s.id === sessionId) : sessions;
    if (sessionId && chosen.length === 0)
      throw new NotFoundError(`Session "${sessionId}" is not waiting for a retry`);
    const jobs: JobInfo[] = [];
    for (const s of chosen) jobs.push(await this.consolidator.enqueue(scope, s.id).done);
    return jobs;
  }

  /** Stores and consolidates a validated transcript, session by session; resumable. */
  ingest(transcript: Transcript, options: IngestOptions = {}): Promise<IngestReport> {
    return ingestTranscript(
      {
        store: this.store,
        consolidator: this.consolidator,
        embedder: this.embedder,
        scope: (a) => this.scope(a),
        strategy: this.strategy.name,
      },
      transcript,
      options,
    );
  }

  async agents(): Promise<string[]> {
    return this.store.listAgents(this.tenant);
  }

  async inspect(agent: string): Promise<InspectView> {
    const scope = this.scope(agent);
    return {
      agent,
      strategy: this.strategy.name,
      cognition: this.cognition.name,
      embedder: this.embedder.name,
      ...(await this.store.stats(scope)),
      sessionList: await this.store.listSessions(scope),
      failures: await this.failures(agent),
      jobs: this.jobs().filter((j) => j.agent === agent),
    };
  }

  /** Things this instance created and must release on close (the embedder's worker threads). */
  readonly owned: { close(): Promise<void> }[] = [];

  /** Waits for background work, then closes the store and what this instance created. */
  async close(): Promise<void> {
    await this.idle();
    await this.store.close();
    for (const resource of this.owned) await resource.close();
  }
}

/** Opens memlane with a store, a strategy and a cognition engine (offline unless a chat model is set). */
export async function openMemlane(config: MemlaneConfig = {}): Promise<Memlane> {
  const strategy =
    typeof config.strategy === "object"
      ? config.strategy
      : createStrategy(config.strategy ?? DEFAULT_STRATEGY);
  const embedder = new CachedEmbedder(resolveEmbedder(config.embedder));
  const chat = resolveChat(config.chat);
  const cognition = resolveCognition(config, chat, embedder);
  const store = resolveStore(config.store);
  const mem = new Memlane(store, cognition, embedder, strategy, config.tenant ?? "default", chat);
  // An embedder built here from a name is ours to close; one passed in belongs to the caller.
  if (typeof config.embedder !== "object") mem.owned.push(embedder);
  return mem;
}
