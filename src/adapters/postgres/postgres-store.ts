/**
 * The Postgres store: the MemoryStore port over a real server (`pg`) or PGlite, for several
 * processes on one database. Every write is one transaction that first bumps the change version
 * of each scope it touches: that row lock makes writers of one scope (and a forget) take turns,
 * as SQLite's single writer does, while other scopes write in parallel. The schema is made or
 * upgraded on first use (migrations.ts), so opening is synchronous and cheap.
 */

import { compositeKey } from "../../core/ids.js";
import type {
  Edge,
  Memory,
  MemoryFilter,
  Operation,
  Scope,
  Session,
  SessionStatus,
  Turn,
} from "../../core/types.js";
import { cosine } from "../../core/vector.js";
import { mapInSlices } from "../../core/yield-to-loop.js";
import { checkBatchScope } from "../../store/batch-scope.js";
import type {
  ForgetReport,
  ForgetRequest,
  ListPage,
  ListRequest,
  MemoryStore,
  OperationFilter,
  ScopeChanges,
  ScopedBatch,
  ScopePage,
  ScopeTable,
  StoreStats,
  TurnFilter,
  VectorHit,
  WriteBatch,
} from "../../store/memory-store.js";
import { forgetProgram } from "../../store/sql/forget.js";
import { readListPage } from "../../store/sql/list-page.js";
import { runAsync } from "../../store/sql/program.js";
import { blobToVector, toEdge, toMemory, toOperation, toSession, toTurn } from "../../store/sql/rows.js";
import { bumpVersion, readChanges } from "../../store/sql/scope-changes.js";
import { readScopePage } from "../../store/sql/scope-page.js";
import { postgresDialect, postgresRunner } from "./dialect.js";
import { memoryWhere, Params } from "./memory-filter.js";
import { migrate } from "./migrations.js";
import { storeError } from "./pg-errors.js";
import type { SqlClient, SqlQueryable, SqlRow } from "./sql-client.js";
import { backfillVectors, enableVectors, HnswIndexes } from "./vector-index.js";
import { applyBatch } from "./write-batch.js";

export interface PostgresStoreOptions {
  /** The schema memlane's tables live in. Default "memlane". */
  schema?: string;
  /**
   * `statement_timeout` of every connection, in ms (0: none). Default 30,000. A statement cancelled
   * at it fails STORE_UNAVAILABLE (`details.reason` "statement-timeout").
   */
  statementTimeoutMs?: number;
  /**
   * `lock_timeout` of every connection, in ms (0: none). Default 5,000: a write that finds its row
   * or table locked elsewhere for longer fails STORE_UNAVAILABLE (`details.reason` "lock-timeout")
   * instead of hanging. Waiting for another replica's append to the same session is bounded by
   * the statement timeout instead (that holder may be running a model).
   */
  lockTimeoutMs?: number;
  /** Connections of the store's pool (shared with the API keys and upload jobs of this process). Default 11. */
  poolSize?: number;
  /** Connections that hold sessions against other replicas' appends. Default 5. */
  sessionLockPoolSize?: number;
  /**
   * "auto" (default): k-NN in SQL on an HNSW index when pgvector can be had; "exact": always the
   * exact scan over the scope's vectors, held in this process.
   */
  vectorSearch?: "auto" | "exact";
}

/**
 * What the store found at its first use: whether pgvector's column is there (memory vectors are
 * written to it), what the installed pgvector can do, and whether the vectors stored before the
 * column have all been copied into it (until then, searches stay exact).
 */
type Ready = { vectors: boolean; iterativeScan: boolean; backfilled: () => boolean };

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

export class PostgresStore implements MemoryStore {
  readonly specificationVersion = "v1" as const;
  readonly schema: string;
  private readonly vectorSearch: "auto" | "exact";
  private readying: Promise<Ready> | null = null;
  private readonly hnsw: HnswIndexes;
  /** Exact search without pgvector: each scope's memory vectors, kept while its change version holds. */
  private readonly vectorCache = new Map<string, { version: string; vectors: Map<string, Float32Array> }>();

  /**
   * A store over `client`, which it owns and closes (exposed for maintenance queries and
   * benchmarks). Nothing is read before the first call.
   */
  constructor(
    readonly client: SqlClient,
    options: PostgresStoreOptions = {},
  ) {
    this.schema = options.schema ?? "memlane";
    this.vectorSearch = options.vectorSearch ?? "auto";
    this.lockTimeoutMs = options.lockTimeoutMs;
    this.hnsw = new HnswIndexes(client);
  }

  private readonly lockTimeoutMs: number | undefined;
  /** The copy of older vectors into pgvector's column, running in the background. */
  private backfilling: Promise<unknown> | null = null;
  private closing = false;

  /**
   * Connects and makes the schema ready (migrating an older one, refusing a newer one), then finds
   * out about pgvector. Processes call it when they start so that they refuse to start, rather
   * than fail every request or job, on a database they cannot use.
   * @throws {StoreUnavailableError} the database cannot be reached, was written by a newer memlane, or is not memlane's
   */
  async open(): Promise<void> {
    await this.run(async () => undefined);
  }

  /** Migrates once, then finds out about pgvector; a failure is retried by the next call. */
  private ready(): Promise<Ready> {
    if (!this.readying) {
      this.readying = (async () => {
        await migrate(this.client, this.schema, { lockTimeoutMs: this.lockTimeoutMs });
        const pgvector =
          this.vectorSearch === "auto"
            ? await enableVectors(this.client, { lockTimeoutMs: this.lockTimeoutMs })
            : null;
        let backfilled = false;
        // Vectors stored before the column existed are copied in short transactions while this
        // process serves; searches stay exact until the copy is whole (a failed copy is tried
        // again by the next process that starts; this one stays exact).
        if (pgvector)
          this.backfilling = backfillVectors(this.client, { stopped: () => this.closing }).then(
            () => {
              backfilled = !this.closing;
            },
            () => undefined,
          );
        return {
          vectors: pgvector !== null,
          iterativeScan: pgvector?.iterativeScan ?? false,
          backfilled: () => backfilled,
        };
      })();
      this.readying.catch(() => {
        this.readying = null;
      });
    }
    return this.readying;
  }

  /** Runs a read or write after the schema is ready, with connection failures typed. */
  private async run<T>(work: (ready: Ready) => Promise<T>): Promise<T> {
    try {
      return await work(await this.ready());
    } catch (error) {
      throw storeError(error, this.client.label);
    }
  }

  private async rows(sql: string, params: unknown[]): Promise<SqlRow[]> {
    return this.run(async () => (await this.client.query(sql, params)).rows);
  }

  /** Holds a session against appends by other processes (an advisory lock); none on PGlite. */
  async holdSession(scope: Scope, sessionId: string): Promise<() => Promise<void>> {
    if (!this.client.lock) return async () => undefined;
    try {
      return await this.client.lock(`memlane-session:${compositeKey(scope.tenant, scope.agent, sessionId)}`);
    } catch (error) {
      throw storeError(error, this.client.label);
    }
  }

  /** True when memory search runs in the database on an HNSW index (pgvector), not in this process. */
  async searchesInDatabase(): Promise<boolean> {
    return this.run(async (ready) => ready.vectors);
  }

  async write(scope: Scope, batch: WriteBatch): Promise<void> {
    await this.writeMany([{ scope, batch }]);
  }

  async writeMany(entries: ScopedBatch[]): Promise<void> {
    for (const { scope, batch } of entries) checkBatchScope(scope, batch);
    await this.run(async (ready) => {
      // The HNSW index of a model exists before its first vectors are written: filled row by
      // row as memories arrive, rather than built over a whole store at the first search (162 s
      // for 100K memories on PGlite, while that search waited).
      // The build is started, not awaited: it runs concurrently with this write and every other
      // (a build during the copy of older vectors is fine: each row copied joins the index).
      if (ready.vectors) {
        // Each model and width once, not once per vector.
        const wanted = new Map<string, [string, number]>();
        for (const { batch } of entries)
          for (const e of batch.embeddings ?? [])
            if (e.ownerKind === "memory")
              wanted.set(`${e.model}\u0000${e.vector.length}`, [e.model, e.vector.length]);
        for (const [model, dims] of wanted.values()) void this.hnsw.usable(model, dims).catch(() => false);
      }
      await this.client.transaction(async (tx) => {
        await bumpVersions(
          tx,
          entries.map((e) => e.scope),
        );
        for (const { scope, batch } of entries) await applyBatch(tx, scope, batch, ready.vectors);
      });
    });
  }

  async getSession(scope: Scope, id: string): Promise<Session | null> {
    const [row] = await this.rows("SELECT * FROM sessions WHERE tenant = $1 AND agent = $2 AND id = $3", [
      scope.tenant,
      scope.agent,
      id,
    ]);
    return row ? toSession(row) : null;
  }

  async listSessions(
    scope: Scope,
    filter: { status?: SessionStatus | SessionStatus[]; partner?: string } = {},
  ): Promise<Session[]> {
    const p = new Params();
    const where = [`tenant = ${p.add(scope.tenant)}`, `agent = ${p.add(scope.agent)}`];
    const statuses = asList(filter.status);
    if (statuses) where.push(`status = ANY(${p.add(statuses)}::text[])`);
    if (filter.partner) where.push(`partners::jsonb ? ${p.add(filter.partner)}`);
    const rows = await this.rows(
      `SELECT * FROM sessions WHERE ${where.join(" AND ")} ORDER BY at, recorded_at, id`,
      p.values,
    );
    return rows.map(toSession);
  }

  async listTurns(scope: Scope, filter: TurnFilter = {}): Promise<Turn[]> {
    if (filter.ids?.length === 0) return [];
    const p = new Params();
    const where = [`t.tenant = ${p.add(scope.tenant)}`, `t.agent = ${p.add(scope.agent)}`];
    if (filter.sessionId) where.push(`t.session_id = ${p.add(filter.sessionId)}`);
    if (filter.speaker) where.push(`t.speaker = ${p.add(filter.speaker)}`);
    if (filter.ids) where.push(`t.id = ANY(${p.add(filter.ids)}::text[])`);
    // The turns asked for are picked first, then ordered by their sessions: joined whole, the
    // planner scanned the scope's every turn to find a few by id (0.7 s at 10K turns per catch-up).
    const rows = await this.rows(
      `WITH t AS MATERIALIZED (SELECT * FROM turns t WHERE ${where.join(" AND ")})
       SELECT t.* FROM t JOIN sessions s ON s.tenant = t.tenant AND s.agent = t.agent AND s.id = t.session_id
       ORDER BY s.at, s.id, t.idx`,
      p.values,
    );
    return mapInSlices(rows, toTurn);
  }

  async getMemory(scope: Scope, id: string): Promise<Memory | null> {
    const [row] = await this.rows("SELECT * FROM memories WHERE tenant = $1 AND agent = $2 AND id = $3", [
      scope.tenant,
      scope.agent,
      id,
    ]);
    return row ? toMemory(row) : null;
  }

  /** Memories matching the filter; active ones only unless `status` says otherwise. */
  async listMemories(scope: Scope, filter: MemoryFilter = {}): Promise<Memory[]> {
    const p = new Params();
    const where = memoryWhere(p, scope, filter);
    const rows = await this.rows(
      `SELECT * FROM memories WHERE ${where} ORDER BY observed_at, recorded_at, id`,
      p.values,
    );
    return mapInSlices(rows, toMemory);
  }

  async listEdges(scope: Scope, memoryIds?: string[]): Promise<Edge[]> {
    const rows = memoryIds
      ? await this.rows(
          `SELECT * FROM edges WHERE tenant = $1 AND agent = $2 AND (src = ANY($3::text[]) OR dst = ANY($3::text[]))
           ORDER BY recorded_at, id`,
          [scope.tenant, scope.agent, memoryIds],
        )
      : await this.rows("SELECT * FROM edges WHERE tenant = $1 AND agent = $2 ORDER BY recorded_at, id", [
          scope.tenant,
          scope.agent,
        ]);
    return mapInSlices(rows, toEdge);
  }

  /** Operations with the memories they touched, gathered in the same query. */
  private operationsWhere(where: string, params: unknown[], tail = ""): Promise<SqlRow[]> {
    return this.rows(
      `SELECT o.*, coalesce((SELECT array_agg(r.memory_id ORDER BY r.memory_id) FROM operation_refs r
         WHERE r.tenant = o.tenant AND r.agent = o.agent AND r.op_id = o.id), '{}') AS memory_ids
       FROM operations o WHERE ${where}${tail}`,
      params,
    );
  }

  async listOperations(scope: Scope, filter: OperationFilter = {}): Promise<Operation[]> {
    const p = new Params();
    const where = [`o.tenant = ${p.add(scope.tenant)}`, `o.agent = ${p.add(scope.agent)}`];
    if (filter.status) where.push(`o.status = ${p.add(filter.status)}`);
    if (filter.sessionId) where.push(`o.session_id = ${p.add(filter.sessionId)}`);
    if (filter.memoryId)
      where.push(
        `EXISTS (SELECT 1 FROM operation_refs r WHERE r.tenant = o.tenant AND r.agent = o.agent AND r.op_id = o.id AND r.memory_id = ${p.add(filter.memoryId)})`,
      );
    if (filter.type) where.push(`o.type = ${p.add(filter.type)}`);
    const limit = filter.limit ? ` LIMIT ${Math.max(1, Math.floor(filter.limit))}` : "";
    const order = filter.newest ? "o.at DESC, o.recorded_at DESC, o.id DESC" : "o.at, o.recorded_at, o.id";
    const rows = await this.operationsWhere(where.join(" AND "), p.values, ` ORDER BY ${order}${limit}`);
    return rows.map((r) => toOperation(r, (r.memory_ids as string[]).map(String)));
  }

  async getOperation(scope: Scope, id: string): Promise<Operation | null> {
    const [row] = await this.operationsWhere("o.tenant = $1 AND o.agent = $2 AND o.id = $3", [
      scope.tenant,
      scope.agent,
      id,
    ]);
    return row ? toOperation(row, (row.memory_ids as string[]).map(String)) : null;
  }

  async getEmbeddings(
    scope: Scope,
    ownerKind: "memory" | "turn",
    ids: string[],
    model: string,
  ): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (ids.length === 0) return out;
    const rows = await this.rows(
      `SELECT owner_id, vector FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = $3 AND model = $4
       AND owner_id = ANY($5::text[])`,
      [scope.tenant, scope.agent, ownerKind, model, ids],
    );
    // A cold load asks for a whole scope's vectors at once: decoded in slices, as SQLite pages them.
    await mapInSlices(rows, (r) => out.set(String(r.owner_id), blobToVector(r.vector as Uint8Array)));
    return out;
  }

  /**
   * Cosine search over the scope's memories that pass the filter: in SQL on the HNSW index when
   * pgvector is there (approximate), else an exact scan over vectors cached in this process and
   * reloaded when the scope's change version (kept in the database) moves.
   */
  async searchMemories(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    filter: MemoryFilter = {},
  ): Promise<VectorHit[]> {
    return this.run(async (ready) => {
      // The HNSW index serves once every vector is in its column and the index is valid; until
      // then (an older store gaining pgvector, an index being built) the search is exact.
      if (ready.vectors && ready.backfilled() && (await this.hnsw.usable(model, vector.length)))
        return this.hnsw.nearest(scope, vector, model, k, filter, ready.iterativeScan);
      const vectors = await this.vectorsOf(scope, model);
      const p = new Params();
      const where = memoryWhere(p, scope, filter);
      const ids = (
        await this.client.query<{ id: string }>(`SELECT id FROM memories WHERE ${where}`, p.values)
      ).rows;
      const hits: VectorHit[] = [];
      for (const { id } of ids) {
        const v = vectors.get(id);
        if (v) hits.push({ id, score: cosine(vector, v) });
      }
      hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      return hits.slice(0, Math.max(0, k));
    });
  }

  /** Postgres's plan for the k-NN query of `searchMemories` (pgvector only): does the HNSW index serve it? */
  async explainSearch(scope: Scope, vector: Float32Array, model: string, k: number): Promise<string> {
    return this.run(async (ready) =>
      ready.vectors
        ? this.hnsw.plan(scope, vector, model, k, ready.iterativeScan)
        : "exact scan in this process (no pgvector)",
    );
  }

  private async vectorsOf(scope: Scope, model: string): Promise<Map<string, Float32Array>> {
    const key = compositeKey(scope.tenant, scope.agent, model);
    // The version is read first: vectors loaded after it are at least that new.
    const version = await this.changeVersion(scope);
    const cached = this.vectorCache.get(key);
    if (cached?.version === version) return cached.vectors;
    const rows = await this.client.query<{ owner_id: string; vector: Uint8Array }>(
      "SELECT owner_id, vector FROM embeddings WHERE tenant = $1 AND agent = $2 AND owner_kind = 'memory' AND model = $3",
      [scope.tenant, scope.agent, model],
    );
    const vectors = new Map<string, Float32Array>();
    await mapInSlices(rows.rows, (r) => vectors.set(r.owner_id, blobToVector(r.vector)));
    this.vectorCache.set(key, { version, vectors });
    return vectors;
  }

  async forget(scope: Scope, request: ForgetRequest): Promise<ForgetReport> {
    return this.run((ready) =>
      this.client.transaction(async (tx) => {
        await bumpVersions(tx, [scope]);
        const report = await runAsync(forgetProgram(postgresDialect, scope, request), postgresRunner(tx));
        // The request's record lands with the erase, or neither does.
        if (request.record)
          await applyBatch(tx, scope, { operations: [request.record(report)] }, ready.vectors);
        return report;
      }),
    );
  }

  async changeVersion(scope: Scope): Promise<string> {
    const [row] = await this.rows("SELECT version FROM scope_versions WHERE tenant = $1 AND agent = $2", [
      scope.tenant,
      scope.agent,
    ]);
    return String(row?.version ?? 0);
  }

  async changesSince(scope: Scope, since: string): Promise<ScopeChanges | null> {
    return this.run(() => runAsync(readChanges(scope, since), postgresRunner(this.client)));
  }

  async readPage(scope: Scope, table: ScopeTable, after: string[] | null, limit: number): Promise<ScopePage> {
    return this.run(() =>
      runAsync(readScopePage(postgresDialect, scope, table, after, limit), postgresRunner(this.client)),
    );
  }

  async listPage(scope: Scope, request: ListRequest): Promise<ListPage> {
    return this.run(() =>
      runAsync(readListPage(postgresDialect, scope, request), postgresRunner(this.client)),
    );
  }

  async listClosedSessions(): Promise<{ tenant: string; agent: string; id: string; at: string }[]> {
    const rows = await this.rows(
      "SELECT tenant, agent, id, at FROM sessions WHERE status = 'closed' ORDER BY tenant, agent, at, recorded_at, id",
      [],
    );
    return rows.map((r) => ({
      tenant: String(r.tenant),
      agent: String(r.agent),
      id: String(r.id),
      at: String(r.at),
    }));
  }

  async listAgents(tenant: string): Promise<string[]> {
    const rows = await this.rows(
      "SELECT agent FROM sessions WHERE tenant = $1 UNION SELECT agent FROM memories WHERE tenant = $1 ORDER BY agent",
      [tenant],
    );
    return rows.map((r) => String(r.agent));
  }

  async stats(scope: Scope): Promise<StoreStats> {
    const s = [scope.tenant, scope.agent];
    const count = async (table: string) =>
      Number(
        (await this.rows(`SELECT count(*) AS n FROM ${table} WHERE tenant = $1 AND agent = $2`, s))[0]?.n,
      );
    const grouped = async (key: string, table: string) =>
      Object.fromEntries(
        (
          await this.rows(
            `SELECT ${key} AS k, count(*) AS n FROM ${table} WHERE tenant = $1 AND agent = $2 GROUP BY 1`,
            s,
          )
        ).map((r) => [String(r.k), Number(r.n)]),
      );
    return {
      sessions: await count("sessions"),
      turns: await count("turns"),
      memories: await grouped("status", "memories"),
      edges: await count("edges"),
      operations: await grouped("type || ':' || status", "operations"),
      embeddings: await count("embeddings"),
    };
  }

  /**
   * Resolves when the store is ready and the copy of older vectors into pgvector's column has
   * ended (at once without pgvector), and whether searches may now use the HNSW index of `model`
   * at `dims` (built when missing, and awaited). For tests and `memlane migrate`.
   */
  async vectorsReady(model?: string, dims?: number): Promise<boolean> {
    const ready = await this.ready();
    await this.backfilling;
    if (!ready.vectors || !ready.backfilled()) return false;
    if (model === undefined || dims === undefined) return true;
    await this.hnsw.ensure(model, dims);
    return true;
  }

  /** Ends the connections (or closes this process's PGlite once no other store uses it). */
  async close(): Promise<void> {
    this.closing = true;
    await this.backfilling;
    await this.client.close();
  }
}

/**
 * Bumps each scope's change version, in a fixed order so two transactions over the same scopes
 * never wait on each other in a cycle. The row stays locked until commit: writers of one scope
 * take turns, and the version moves exactly when their rows become visible.
 */
async function bumpVersions(tx: SqlQueryable, scopes: Scope[]): Promise<void> {
  const keys = [...new Set(scopes.map((s) => JSON.stringify([s.tenant, s.agent])))].sort();
  for (const key of keys) {
    const [tenant, agent] = JSON.parse(key) as [string, string];
    await runAsync(bumpVersion({ tenant, agent }), postgresRunner(tx));
  }
}
