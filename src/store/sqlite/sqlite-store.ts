/**
 * The default store: one SQLite file, every batch in one transaction. The file is opened and
 * migrated by open-database.ts; writes and forget are the SQL core's programs (store/sql/), writes
 * run synchronously on this connection, a forget on a thread of its own (forget-worker.ts); reads
 * and the vector cache are here. better-sqlite3 is
 * synchronous; the async port lets other stores (Postgres) do real I/O.
 */
import type Database from "better-sqlite3";
import { MemlaneError } from "../../core/errors.js";
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
import { breathe } from "../../core/yield-to-loop.js";
import { checkBatchScope } from "../batch-scope.js";
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
} from "../memory-store.js";
import { forgetProgram } from "../sql/forget.js";
import { readListPage } from "../sql/list-page.js";
import { memoryWhere } from "../sql/memory-filter.js";
import { runSync } from "../sql/program.js";
import { blobToVector, type Row, toEdge, toMemory, toOperation, toSession, toTurn } from "../sql/rows.js";
import { bumpVersion, readChanges } from "../sql/scope-changes.js";
import { readScopePage } from "../sql/scope-page.js";
import { writeBatch } from "../sql/write-batch.js";
import { sqliteDialect, sqliteRunner } from "./dialect.js";
import { forgetInWorker } from "./forget-worker.js";
import { openDatabase, storeError } from "./open-database.js";
import type { OpenOptions } from "./open-options.js";
import { holdWrites, writesOpen } from "./write-gate.js";

/** Rows read at once by the reads that can span a whole scope; the event loop runs between pages. */
const ROWS_PER_PAGE = 1000;
/**
 * Vectors read at once: fewer than other rows, since each is a kilobyte or more read from its own
 * overflow page (a page of 1,000 held the loop too long on a 100K-turn scope;
 * `npm run bench -- live --parts stalls`).
 */
const VECTORS_PER_PAGE = 100;
/** Sessions whose turns are read at once by a whole-scope turn read. */
const SESSIONS_PER_PAGE = 20;

/** How the file is opened (store/sqlite/open-database.ts). */
export type SqliteStoreOptions = OpenOptions;

type Db = Database.Database;

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Opens (creating if needed) a SQLite store at `path`, or in memory for ":memory:". */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  return new SqliteStore(path, options);
}

export class SqliteStore implements MemoryStore {
  readonly path: string;
  private readonly db: Db;
  /** Runs the SQL core's programs on this connection, its statements prepared once. */
  private readonly runner: ReturnType<typeof sqliteRunner>;
  /** Decoded memory vectors per scope and model, so a search does not re-read every blob. */
  private readonly vectorCache = new Map<string, Map<string, Float32Array>>();

  /** How the file was opened, for the forget's own connection. */
  private readonly options: SqliteStoreOptions;
  /** An in-memory database: private to this connection, so its forget cannot go to another thread. */
  private readonly inMemory: boolean;
  /** Forgets running on another thread, awaited by close(). */
  private readonly forgetting = new Set<Promise<ForgetReport>>();

  constructor(path: string, options: SqliteStoreOptions = {}) {
    this.path = path;
    this.options = options;
    this.inMemory = path === ":memory:" || path === "";
    this.db = openDatabase(path, options);
    this.runner = sqliteRunner(this.db);
  }

  private run<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof MemlaneError) throw error;
      throw storeError(error, this.path);
    }
  }

  readonly specificationVersion = "v1" as const;

  async write(scope: Scope, batch: WriteBatch): Promise<void> {
    await this.writeMany([{ scope, batch }]);
  }

  async writeMany(entries: ScopedBatch[]): Promise<void> {
    for (const { scope, batch } of entries) checkBatchScope(scope, batch);
    // A forget on another thread holds the file's write lock: wait for it here, not in the busy handler.
    await writesOpen(this.path);
    const apply = this.db.transaction(() => {
      for (const { scope, batch } of entries) {
        // The version moves first: the change log's triggers stamp rows with it.
        this.bumpVersion(scope);
        this.applyBatch(scope, batch);
      }
    });
    this.run(() => apply.immediate());
    for (const { scope } of entries) this.invalidate(scope);
  }

  /** Inside a write transaction, before its rows change: the scope's change version moves with the commit. */
  private bumpVersion(scope: Scope): void {
    runSync(bumpVersion(scope), this.runner);
  }

  /** The SQL core's write plan, on this connection (store/sql/write-batch.ts). */
  private applyBatch(scope: Scope, b: WriteBatch): void {
    runSync(writeBatch(sqliteDialect, scope, b), this.runner);
  }

  async getSession(scope: Scope, id: string): Promise<Session | null> {
    const row = this.run(() =>
      this.db
        .prepare("SELECT * FROM sessions WHERE tenant = ? AND agent = ? AND id = ?")
        .get(scope.tenant, scope.agent, id),
    ) as Row | undefined;
    return row ? toSession(row) : null;
  }

  async listSessions(
    scope: Scope,
    filter: { status?: SessionStatus | SessionStatus[]; partner?: string } = {},
  ): Promise<Session[]> {
    const where = ["tenant = ?", "agent = ?"];
    const args: unknown[] = [scope.tenant, scope.agent];
    const statuses = asList(filter.status);
    if (statuses) {
      where.push(`status IN (${placeholders(statuses.length)})`);
      args.push(...statuses);
    }
    if (filter.partner) {
      where.push("EXISTS (SELECT 1 FROM json_each(partners) WHERE value = ?)");
      args.push(filter.partner);
    }
    const rows = this.run(() =>
      this.db
        .prepare(`SELECT * FROM sessions WHERE ${where.join(" AND ")} ORDER BY at, recorded_at, id`)
        .all(...args),
    ) as Row[];
    return rows.map(toSession);
  }

  async listTurns(scope: Scope, filter: TurnFilter = {}): Promise<Turn[]> {
    const where = ["t.tenant = ?", "t.agent = ?"];
    const args: unknown[] = [scope.tenant, scope.agent];
    if (filter.sessionId) {
      where.push("t.session_id = ?");
      args.push(filter.sessionId);
    }
    if (filter.speaker) {
      where.push("t.speaker = ?");
      args.push(filter.speaker);
    }
    if (filter.ids) {
      if (filter.ids.length === 0) return [];
      where.push(`t.id IN (SELECT value FROM json_each(?))`);
      args.push(JSON.stringify(filter.ids));
    }
    if (!filter.ids && !filter.sessionId) return this.allTurns(scope, filter.speaker);
    const rows = this.run(() =>
      this.db
        .prepare(
          `SELECT t.* FROM turns t JOIN sessions s ON s.tenant = t.tenant AND s.agent = t.agent AND s.id = t.session_id
           WHERE ${where.join(" AND ")} ORDER BY s.at, s.id, t.idx`,
        )
        .all(...args),
    ) as Row[];
    return rows.map(toTurn);
  }

  /**
   * A scope's turns (one speaker's, if given) read a page of sessions at a time, pausing between
   * pages: a whole large scope read at once would hold the event loop for seconds. The order is
   * listTurns' (sessions by time, then turn index). Writes may land between pages; the search
   * index that reads this way catches up with them from the change log.
   */
  private async allTurns(scope: Scope, speaker: string | undefined): Promise<Turn[]> {
    const sessions = this.run(
      () =>
        this.db
          .prepare("SELECT id FROM sessions WHERE tenant = ? AND agent = ? ORDER BY at, id")
          .pluck()
          .all(scope.tenant, scope.agent) as string[],
    );
    const out: Turn[] = [];
    const statement = this.run(() =>
      this.db.prepare(
        `SELECT * FROM turns WHERE tenant = ? AND agent = ? AND session_id IN (SELECT value FROM json_each(?))
         ${speaker === undefined ? "" : "AND speaker = ?"} ORDER BY session_id, idx`,
      ),
    );
    for (let i = 0; i < sessions.length; i += SESSIONS_PER_PAGE) {
      const page = sessions.slice(i, i + SESSIONS_PER_PAGE);
      const args = [
        scope.tenant,
        scope.agent,
        JSON.stringify(page),
        ...(speaker === undefined ? [] : [speaker]),
      ];
      const rows = this.run(() => statement.all(...args) as Row[]);
      const bySession = new Map<string, Turn[]>();
      for (const r of rows) {
        const t = toTurn(r);
        const list = bySession.get(t.sessionId);
        if (list) list.push(t);
        else bySession.set(t.sessionId, [t]);
      }
      for (const id of page) out.push(...(bySession.get(id) ?? []));
      await breathe();
    }
    return out;
  }

  async getMemory(scope: Scope, id: string): Promise<Memory | null> {
    const row = this.run(() =>
      this.db
        .prepare("SELECT * FROM memories WHERE id = ? AND tenant = ? AND agent = ?")
        .get(id, scope.tenant, scope.agent),
    ) as Row | undefined;
    return row ? toMemory(row) : null;
  }

  private memoryWhere(scope: Scope, filter: MemoryFilter): { sql: string; args: unknown[] } {
    const { sql, params } = memoryWhere(sqliteDialect, scope, filter);
    return { sql, args: params };
  }

  /** Memories matching the filter; active ones only unless `status` says otherwise. */
  async listMemories(scope: Scope, filter: MemoryFilter = {}): Promise<Memory[]> {
    const { sql, args } = this.memoryWhere(scope, filter);
    if (filter.ids) {
      const rows = this.run(() =>
        this.db
          .prepare(`SELECT * FROM memories WHERE ${sql} ORDER BY observed_at, recorded_at, id`)
          .all(...args),
      ) as Row[];
      return rows.map(toMemory);
    }
    // A page at a time, pausing between pages (as allTurns does), in the same order.
    const out: Memory[] = [];
    const [first, next] = this.run(() => [
      this.db.prepare(
        `SELECT * FROM memories WHERE ${sql} ORDER BY observed_at, recorded_at, id LIMIT ${ROWS_PER_PAGE}`,
      ),
      this.db.prepare(
        `SELECT * FROM memories WHERE ${sql} AND (observed_at, recorded_at, id) > (?, ?, ?)
         ORDER BY observed_at, recorded_at, id LIMIT ${ROWS_PER_PAGE}`,
      ),
    ]);
    let after: unknown[] | null = null;
    for (;;) {
      const from: unknown[] | null = after;
      const rows: Row[] = this.run(() => (from ? next.all(...args, ...from) : first.all(...args)) as Row[]);
      for (const r of rows) out.push(toMemory(r));
      if (rows.length < ROWS_PER_PAGE) return out;
      const last: Row = rows.at(-1)!;
      after = [last.observed_at, last.recorded_at, last.id];
      await breathe();
    }
  }

  async listEdges(scope: Scope, memoryIds?: string[]): Promise<Edge[]> {
    const rows = this.run(() =>
      memoryIds
        ? this.db
            .prepare(
              `SELECT * FROM edges WHERE tenant = ? AND agent = ? AND (src IN (SELECT value FROM json_each(?))
               OR dst IN (SELECT value FROM json_each(?))) ORDER BY recorded_at, id`,
            )
            .all(scope.tenant, scope.agent, JSON.stringify(memoryIds), JSON.stringify(memoryIds))
        : this.db
            .prepare("SELECT * FROM edges WHERE tenant = ? AND agent = ? ORDER BY recorded_at, id")
            .all(scope.tenant, scope.agent),
    ) as Row[];
    return rows.map(toEdge);
  }

  async listOperations(scope: Scope, filter: OperationFilter = {}): Promise<Operation[]> {
    const where = ["o.tenant = ?", "o.agent = ?"];
    const args: unknown[] = [scope.tenant, scope.agent];
    if (filter.status) {
      where.push("o.status = ?");
      args.push(filter.status);
    }
    if (filter.sessionId) {
      where.push("o.session_id = ?");
      args.push(filter.sessionId);
    }
    if (filter.memoryId) {
      where.push("o.id IN (SELECT op_id FROM operation_refs WHERE memory_id = ?)");
      args.push(filter.memoryId);
    }
    if (filter.type) {
      where.push("o.type = ?");
      args.push(filter.type);
    }
    const limit = filter.limit ? ` LIMIT ${Math.max(1, Math.floor(filter.limit))}` : "";
    const order = filter.newest ? "o.at DESC, o.recorded_at DESC, o.id DESC" : "o.at, o.recorded_at, o.id";
    const rows = this.run(() =>
      this.db
        .prepare(`SELECT o.* FROM operations o WHERE ${where.join(" AND ")} ORDER BY ${order}${limit}`)
        .all(...args),
    ) as Row[];
    return rows.map((r) => toOperation(r, this.refsOf(String(r.id))));
  }

  private refsOf(opId: string): string[] {
    return (
      this.db
        .prepare("SELECT memory_id FROM operation_refs WHERE op_id = ? ORDER BY memory_id")
        .all(opId) as Row[]
    ).map((r) => String(r.memory_id));
  }

  async getOperation(scope: Scope, id: string): Promise<Operation | null> {
    const row = this.run(() =>
      this.db
        .prepare("SELECT * FROM operations WHERE id = ? AND tenant = ? AND agent = ?")
        .get(id, scope.tenant, scope.agent),
    ) as Row | undefined;
    return row ? toOperation(row, this.refsOf(id)) : null;
  }

  async getEmbeddings(
    scope: Scope,
    ownerKind: "memory" | "turn",
    ids: string[],
    model: string,
  ): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    if (ids.length === 0) return out;
    const statement = this.run(() =>
      this.db.prepare(
        `SELECT owner_id, vector FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = ? AND model = ?
         AND owner_id IN (SELECT value FROM json_each(?))`,
      ),
    );
    // A page of owners at a time, pausing between pages (a whole scope's vectors are many).
    for (let i = 0; i < ids.length; i += VECTORS_PER_PAGE) {
      if (i > 0) await breathe();
      const page = JSON.stringify(ids.slice(i, i + VECTORS_PER_PAGE));
      const rows = this.run(() => statement.all(scope.tenant, scope.agent, ownerKind, model, page) as Row[]);
      for (const r of rows) out.set(String(r.owner_id), blobToVector(r.vector as Buffer));
    }
    return out;
  }

  private vectorsOf(scope: Scope, model: string): Map<string, Float32Array> {
    const key = compositeKey(scope.tenant, scope.agent, model);
    let cached = this.vectorCache.get(key);
    if (!cached) {
      cached = new Map();
      const rows = this.db
        .prepare(
          "SELECT owner_id, vector FROM embeddings WHERE tenant = ? AND agent = ? AND owner_kind = 'memory' AND model = ?",
        )
        .all(scope.tenant, scope.agent, model) as Row[];
      for (const r of rows) cached.set(String(r.owner_id), blobToVector(r.vector as Buffer));
      this.vectorCache.set(key, cached);
    }
    return cached;
  }

  private invalidate(scope: Scope): void {
    for (const key of this.vectorCache.keys()) {
      const [tenant, agent] = JSON.parse(key) as string[];
      if (tenant === scope.tenant && agent === scope.agent) this.vectorCache.delete(key);
    }
  }

  async searchMemories(
    scope: Scope,
    vector: Float32Array,
    model: string,
    k: number,
    filter: MemoryFilter = {},
  ): Promise<VectorHit[]> {
    const { sql, args } = this.memoryWhere(scope, filter);
    const ids = this.run(() =>
      this.db
        .prepare(`SELECT id FROM memories WHERE ${sql}`)
        .pluck()
        .all(...args),
    ) as string[];
    const vectors = this.vectorsOf(scope, model);
    const hits: VectorHit[] = [];
    for (const id of ids) {
      const v = vectors.get(id);
      if (v) hits.push({ id, score: cosine(vector, v) });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return hits.slice(0, Math.max(0, k));
  }

  /**
   * Erases what the request names (store/sql/forget.ts), with its record, in one transaction,
   * then checkpoints the WAL so the erased text leaves the disk. On a file the work runs on a
   * worker thread with its own connection (forget-worker.ts), so the serving thread stays free:
   * its reads see the scope as it was until the commit, and its writes to the file wait for the
   * forget. An in-memory database belongs to this connection alone and cannot be reached from
   * another thread, so there the forget runs here, holding the thread for its whole length.
   */
  async forget(scope: Scope, request: ForgetRequest): Promise<ForgetReport> {
    if (this.inMemory) return this.forgetHere(scope, request);
    const forgetting = holdWrites(this.path, async () => {
      try {
        return await forgetInWorker({ path: this.path, options: this.options, scope, request });
      } catch (error) {
        if (error instanceof MemlaneError) throw error;
        throw storeError(error, this.path);
      } finally {
        // Whatever happened, no cached vector may outlive a forget that may have committed.
        this.invalidate(scope);
      }
    });
    this.forgetting.add(forgetting);
    try {
      return await forgetting;
    } finally {
      this.forgetting.delete(forgetting);
    }
  }

  /** The in-memory forget: the same program and record, on this connection and thread (no WAL to checkpoint). */
  private forgetHere(scope: Scope, request: ForgetRequest): ForgetReport {
    const db = this.db;
    const work = db.transaction((): ForgetReport => {
      this.bumpVersion(scope);
      const report = runSync(forgetProgram(sqliteDialect, scope, request), this.runner);
      // The request's record lands with the erase, or neither does.
      if (request.record) this.applyBatch(scope, { operations: [request.record(report)] });
      return report;
    });
    const report = this.run(() => work.immediate());
    this.invalidate(scope);
    return report;
  }

  async changeVersion(scope: Scope): Promise<string> {
    const version = this.run(() =>
      this.db
        .prepare("SELECT version FROM scope_versions WHERE tenant = ? AND agent = ?")
        .pluck()
        .get(scope.tenant, scope.agent),
    );
    return String(version ?? 0);
  }

  async changesSince(scope: Scope, since: string): Promise<ScopeChanges | null> {
    return this.run(() => runSync(readChanges(scope, since), this.runner));
  }

  async readPage(scope: Scope, table: ScopeTable, after: string[] | null, limit: number): Promise<ScopePage> {
    return this.run(() => runSync(readScopePage(sqliteDialect, scope, table, after, limit), this.runner));
  }

  async listPage(scope: Scope, request: ListRequest): Promise<ListPage> {
    return this.run(() => runSync(readListPage(sqliteDialect, scope, request), this.runner));
  }

  async listClosedSessions(): Promise<{ tenant: string; agent: string; id: string; at: string }[]> {
    return this.run(
      () =>
        this.db
          .prepare(
            "SELECT tenant, agent, id, at FROM sessions WHERE status = 'closed' ORDER BY tenant, agent, at, recorded_at, id",
          )
          .all() as { tenant: string; agent: string; id: string; at: string }[],
    );
  }

  async listAgents(tenant: string): Promise<string[]> {
    return this.run(
      () =>
        this.db
          .prepare(
            "SELECT agent FROM sessions WHERE tenant = ? UNION SELECT agent FROM memories WHERE tenant = ? ORDER BY agent",
          )
          .pluck()
          .all(tenant, tenant) as string[],
    );
  }

  async stats(scope: Scope): Promise<StoreStats> {
    return this.run(() => {
      const s = [scope.tenant, scope.agent];
      const count = (sql: string) =>
        Number(
          this.db
            .prepare(sql)
            .pluck()
            .get(...s),
        );
      const grouped = (sql: string) =>
        Object.fromEntries((this.db.prepare(sql).all(...s) as Row[]).map((r) => [String(r.k), Number(r.n)]));
      return {
        sessions: count("SELECT count(*) FROM sessions WHERE tenant = ? AND agent = ?"),
        turns: count("SELECT count(*) FROM turns WHERE tenant = ? AND agent = ?"),
        memories: grouped(
          "SELECT status AS k, count(*) AS n FROM memories WHERE tenant = ? AND agent = ? GROUP BY status",
        ),
        edges: count("SELECT count(*) FROM edges WHERE tenant = ? AND agent = ?"),
        operations: grouped(
          "SELECT type || ':' || status AS k, count(*) AS n FROM operations WHERE tenant = ? AND agent = ? GROUP BY type, status",
        ),
        embeddings: count("SELECT count(*) FROM embeddings WHERE tenant = ? AND agent = ?"),
      };
    });
  }

  async close(): Promise<void> {
    // A forget in flight ends (committed or rolled back) before the store reports itself closed.
    await Promise.allSettled([...this.forgetting]);
    if (this.db.open) this.db.close();
  }
}
