/**
 * The SqlClient over PGlite: real Postgres (with pgvector) compiled to WebAssembly, in this
 * process. One PGlite owns its data directory, so every store of one process that names the same
 * directory shares one instance (closed when the last of them closes); ":memory:" is private.
 */
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { quoteIdent } from "./pg-pool-client.js";
import type { SqlClient, SqlQueryable, SqlResult, SqlRow } from "./sql-client.js";

interface Shared {
  db: Promise<PGlite>;
  users: number;
}

const open = new Map<string, Shared>();

export class PgliteClient implements SqlClient {
  readonly label: string;
  private readonly shared: Shared;
  private closed = false;

  /** `dataDir` is a directory, or ":memory:" for a database that lives as long as this client. */
  constructor(
    private readonly dataDir: string,
    schema: string,
  ) {
    this.label = `pglite:${dataDir}`;
    const existing = dataDir === ":memory:" ? undefined : open.get(dataDir);
    if (existing) {
      existing.users++;
      this.shared = existing;
      return;
    }
    const db = (async () => {
      const instance = new PGlite(dataDir === ":memory:" ? undefined : dataDir, { extensions: { vector } });
      // One session: the search path set once holds for every later statement.
      await instance.exec(`SET search_path TO ${quoteIdent(schema)}, public`);
      return instance;
    })();
    this.shared = { db, users: 1 };
    if (dataDir !== ":memory:") open.set(dataDir, this.shared);
  }

  async query<R = SqlRow>(sql: string, params?: unknown[]): Promise<SqlResult<R>> {
    const result = await (await this.shared.db).query<R>(sql, params);
    return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
  }

  async transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    return (await this.shared.db).transaction((tx) =>
      work({
        async query<R = SqlRow>(sql: string, params?: unknown[]) {
          const result = await tx.query<R>(sql, params);
          return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
        },
      }),
    );
  }

  async exec(sql: string): Promise<void> {
    await (await this.shared.db).exec(sql);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (--this.shared.users > 0) return;
    if (open.get(this.dataDir) === this.shared) open.delete(this.dataDir);
    await (await this.shared.db).close();
  }
}
