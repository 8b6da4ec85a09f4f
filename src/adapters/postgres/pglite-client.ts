/**
 * The SqlClient over PGlite: real Postgres (with pgvector) compiled to WebAssembly, in this
 * process, on a worker thread of its own (pglite-worker.ts). One PGlite owns its data directory,
 * so every store of one process that names the same directory shares one instance (closed when
 * the last of them closes; the next one on that directory starts after); ":memory:" is private.
 * PGlite has a single session: clients of one instance take turns through a queue of their own,
 * and each sets the search path to its schema when the previous statement was another schema's.
 * PGlite has no autovacuum either, so this client keeps the planner's statistics current itself:
 * after about a tenth of the rows have changed it runs ANALYZE, table by table, as a server's
 * autovacuum would, with a small sample (STATISTICS_TARGET) so that no run holds PGlite long.
 * Without statistics every scope looks like a few rows, and plans that walk a whole scope for
 * each of a hundred vector candidates made recall 10× slower at 10K memories.
 */
import { breathe } from "../../core/yield-to-loop.js";
import { applySettings, quoteIdent } from "./pg-pool-client.js";
import { PgliteWorker } from "./pglite-worker.js";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow, SqlSessionSettings } from "./sql-client.js";

interface Shared {
  /** The instance's thread, started on first use (once the directory's last instance has closed). */
  db: Promise<PgliteWorker> | null;
  users: number;
  /** The schema the session's search path names now. */
  schema: string | null;
  /** The tail of the queue every statement of every client of this instance waits in. */
  queue: Promise<unknown>;
  /** Rows inserted, updated or deleted since the last ANALYZE. */
  changed: number;
  /** Rows the tables held at the last ANALYZE (the planner's own count). */
  analyzedRows: number;
  /** The statistics pass under way, if any (close waits for it). */
  analysis: Promise<void> | null;
}

/** Rows changed before statistics are refreshed: a server's autovacuum defaults (50 + 10 %). */
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

/**
 * The statistics target of these ANALYZE runs: 10, where a server's default is 100. ANALYZE reads
 * 300 × target rows per table, and PGlite runs it to its end while other statements wait; 10 is several
 * times shorter than the default (`npm run bench -- postgres --parts analyze`). What the planner needs here is the row counts, which any target
 * gives; an embedded store holds few tenants, which ten common values and ten buckets describe.
 */
const STATISTICS_TARGET = 10;

const open = new Map<string, Shared>();
/** Directories whose last instance is closing: the next one starts after it. */
const closingDirs = new Map<string, Promise<void>>();

export class PgliteClient implements SqlClient {
  readonly label: string;
  private readonly shared: Shared;
  private closed = false;

  /** `dataDir` is a directory, or ":memory:" for a database that lives as long as this client. */
  constructor(
    private readonly dataDir: string,
    private readonly schema: string,
  ) {
    this.label = `pglite:${dataDir}`;
    const existing = dataDir === ":memory:" ? undefined : open.get(dataDir);
    if (existing) {
      existing.users++;
      this.shared = existing;
      return;
    }
    this.shared = {
      db: null,
      users: 1,
      schema: null,
      queue: Promise.resolve(),
      changed: 0,
      analyzedRows: 0,
      analysis: null,
    };
    if (dataDir !== ":memory:") open.set(dataDir, this.shared);
  }

  /** Runs `work` alone on the instance, with the search path on this client's schema. */
  private exclusive<T>(work: (db: PgliteWorker) => Promise<T>): Promise<T> {
    const run = this.shared.queue.then(async () => {
      // Statements queued back to back resolve one after another; a turn every SLICE_MS keeps
      // timers and I/O going while the rows they return are handled here.
      await breathe();
      const db = await this.start();
      if (this.shared.schema !== this.schema) {
        await db.exec(`SET search_path TO ${quoteIdent(this.schema)}, public`);
        this.shared.schema = this.schema;
      }
      return work(db);
    });
    this.shared.queue = run.catch(() => {});
    return run;
  }

  /** The instance's thread; a PGlite still closing on the same directory is gone before it starts. */
  private start(): Promise<PgliteWorker> {
    this.shared.db ??= (async () => {
      await closingDirs.get(this.dataDir);
      return new PgliteWorker(this.dataDir === ":memory:" ? null : this.dataDir, this.label);
    })();
    return this.shared.db;
  }

  /** Counts changed rows; past the threshold, queues ANALYZE behind the statements waiting now. */
  private changedRows(rows: number): void {
    const s = this.shared;
    s.changed += rows;
    if (s.analysis || this.closed || s.changed < ANALYZE_BASE + ANALYZE_SHARE * s.analyzedRows) return;
    s.analysis = this.analyze().finally(() => {
      s.analysis = null;
    });
  }

  /**
   * ANALYZE of every table of the database, one statement per table so that other statements can
   * run between them (PGlite runs a statement to its end, and has one session).
   */
  private async analyze(): Promise<void> {
    const s = this.shared;
    s.changed = 0;
    try {
      const tables = await this.exclusive((db) =>
        db.query<{ name: string }>(
          `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
        ),
      );
      for (const { name } of tables.rows) {
        // Every client has closed: the instance is waiting for this pass to end.
        if (s.users === 0) return;
        await this.exclusive(async (db) => {
          await db.exec(`SET default_statistics_target = ${STATISTICS_TARGET}`);
          try {
            await db.exec(`ANALYZE ${name}`);
          } finally {
            await db.exec("RESET default_statistics_target");
          }
        });
      }
      const rows = await this.exclusive((db) =>
        db.query<{ rows: number }>(
          `SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::float8 AS rows
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
        ),
      );
      s.analyzedRows = Number(rows.rows[0]?.rows ?? 0);
    } catch {
      // A closed instance, or a table dropped meanwhile: the next changes try again.
    }
  }

  query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>> {
    return this.exclusive(async (db) => {
      const result = await db.query<R>(sql, params);
      if (result.affectedRows) this.changedRows(result.affectedRows);
      return { rows: result.rows, rowCount: result.affectedRows };
    });
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    let changed = 0;
    // PGlite has one session, and the queue gives it to this transaction alone until it ends.
    const out = await this.exclusive(async (db) => {
      let ended = false;
      await db.exec("BEGIN");
      try {
        const result = await work({
          async query<R = SqlRow>(sql: string, params?: unknown[]) {
            // A statement sent after the end would run outside it, perhaps inside the next one.
            if (ended) throw new Error("The transaction has ended");
            const result = await db.query<R>(sql, params);
            changed += result.affectedRows;
            return { rows: result.rows, rowCount: result.affectedRows };
          },
        });
        ended = true;
        await db.exec("COMMIT");
        return result;
      } catch (error) {
        if (!ended) {
          ended = true;
          await db.exec("ROLLBACK").catch(() => {});
        }
        throw error;
      } finally {
        ended = true;
      }
    });
    // Counted once committed (a rolled-back transaction changed nothing).
    if (changed) this.changedRows(changed);
    return out;
  }

  /**
   * The instance's one session, held by `work` alone, with `settings` put back to what they were
   * when it ends (the session is every client's).
   */
  async session<T>(
    work: (session: SqlQueryable) => Promise<T>,
    settings: SqlSessionSettings = {},
  ): Promise<T> {
    let changed = 0;
    const out = await this.exclusive(async (db) => {
      const names = Object.keys(settings);
      const session: SqlQueryable = {
        async query<R = SqlRow>(sql: string, params?: unknown[]) {
          const result = await db.query<R>(sql, params);
          changed += result.affectedRows;
          return { rows: result.rows, rowCount: result.affectedRows };
        },
      };
      const before = names.length
        ? (
            await db.query<Record<string, string>>(
              `SELECT ${names.map((_, i) => `current_setting($${i + 1}) AS s${i}`).join(", ")}`,
              names,
            )
          ).rows[0]!
        : {};
      await applySettings(session, settings);
      try {
        return await work(session);
      } finally {
        // A transaction the work left open would swallow the next client's statements.
        await db.exec("ROLLBACK").catch(() => {});
        if (names.length)
          await applySettings(
            session,
            Object.fromEntries(names.map((name, i) => [name, before[`s${i}`] ?? ""])),
          ).catch(() => {});
      }
    });
    if (changed) this.changedRows(changed);
    return out;
  }

  async exec(sql: string): Promise<void> {
    await this.exclusive((db) => db.exec(sql));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (--this.shared.users > 0) return;
    if (open.get(this.dataDir) === this.shared) open.delete(this.dataDir);
    const s = this.shared;
    const closing = (async () => {
      await s.analysis;
      await s.queue;
      await (await s.db)?.close();
    })();
    // Until its files are closed, a new instance on the directory waits (start()).
    const settled = closing.catch(() => {});
    if (this.dataDir !== ":memory:") closingDirs.set(this.dataDir, settled);
    try {
      await closing;
    } finally {
      if (closingDirs.get(this.dataDir) === settled) closingDirs.delete(this.dataDir);
    }
  }
}
