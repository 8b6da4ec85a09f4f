/**
 * The SqlClient over PGlite: real Postgres (with pgvector) compiled to WebAssembly, in this
 * process. One PGlite owns its data directory, so every store of one process that names the same
 * directory shares one instance (closed when the last of them closes); ":memory:" is private.
 * PGlite has a single session: clients of one instance take turns through a queue of their own,
 * and each sets the search path to its schema when the previous statement was another schema's.
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { quoteIdent } from "./pg-pool-client.js";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow } from "./sql-client.js";

interface Shared {
  db: Promise<PGlite>;
  users: number;
  /** The schema the session's search path names now. */
  schema: string | null;
  /** The tail of the queue every statement of every client of this instance waits in. */
  queue: Promise<unknown>;
}

const open = new Map<string, Shared>();

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
    const db = PGlite.create({ ...(dataDir === ":memory:" ? {} : { dataDir }), extensions: { vector } });
    // A failed start is reported to every statement that waits for it, not as an unhandled rejection.
    db.catch(() => {});
    this.shared = { db, users: 1, schema: null, queue: Promise.resolve() };
    if (dataDir !== ":memory:") open.set(dataDir, this.shared);
  }

  /** Runs `work` alone on the instance, with the search path on this client's schema. */
  private exclusive<T>(work: (db: PGlite) => Promise<T>): Promise<T> {
    const run = this.shared.queue.then(async () => {
      const db = await this.shared.db;
      if (this.shared.schema !== this.schema) {
        await db.exec(`SET search_path TO ${quoteIdent(this.schema)}, public`);
        this.shared.schema = this.schema;
      }
      return work(db);
    });
    this.shared.queue = run.catch(() => {});
    return run;
  }

  query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>> {
    return this.exclusive(async (db) => {
      const result = await db.query<R>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    });
  }

  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return this.exclusive((db) =>
      db.transaction((tx) =>
        work({
          async query<R = SqlRow>(sql: string, params?: unknown[]) {
            const result = await tx.query<R>(sql, params);
            return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
          },
        }),
      ),
    );
  }

  async exec(sql: string): Promise<void> {
    await this.exclusive((db) => db.exec(sql));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (--this.shared.users > 0) return;
    if (open.get(this.dataDir) === this.shared) open.delete(this.dataDir);
    await this.shared.queue;
    await (await this.shared.db).close();
  }
}
