/**
 * Opening a SQLite memlane file: the connection's settings (WAL, busy timeout, foreign keys,
 * secure delete so a forget leaves nothing in the file), the schema's migrations in
 * `user_version` under memlane's `application_id`, and the driver's errors as memlane's.
 */

import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { MemlaneError, StoreUnavailableError } from "../../core/errors.js";
import { APPLICATION_ID, MIGRATIONS } from "./migrations.js";
import type { OpenOptions } from "./open-options.js";

/**
 * A connection to a memlane file, its schema brought up to date (never in read-only mode).
 * @throws {StoreUnavailableError} the file cannot be opened, belongs to another program, or needs
 * an upgrade this connection cannot make
 */
export function openDatabase(path: string, options: OpenOptions = {}): Database.Database {
  if (options.readonly && path !== ":memory:" && !existsSync(path))
    throw new StoreUnavailableError(`No memlane database at ${path}`, { path });
  try {
    const db = new Database(path, { readonly: options.readonly ?? false });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    if (!options.readonly) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    // Deleted content is overwritten, so forget() leaves nothing behind in the file.
    db.pragma("secure_delete = ON");
    migrate(db, path, options.readonly ?? false);
    return db;
  } catch (error) {
    if (error instanceof MemlaneError) throw error;
    const mapped = storeError(error, path);
    // Any failure to open is the store being unavailable, whatever the driver called it.
    throw mapped instanceof MemlaneError
      ? mapped
      : new StoreUnavailableError(`Cannot open ${path}: ${(error as Error).message}`, { path }, error);
  }
}

function migrate(db: Database.Database, path: string, readonly: boolean): void {
  const appId = Number(db.pragma("application_id", { simple: true }));
  const version = Number(db.pragma("user_version", { simple: true }));
  if (appId !== 0 && appId !== APPLICATION_ID)
    throw new StoreUnavailableError(`${path} is a SQLite database of another program, not memlane`, { path });
  if (appId === 0 && version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
      n: number;
    };
    if (Number(tables.n) > 0)
      throw new StoreUnavailableError(`${path} already holds tables that are not memlane's`, { path });
  }
  if (version > MIGRATIONS.length)
    throw new StoreUnavailableError(
      `${path} was written by a newer memlane (schema ${version}; this one knows ${MIGRATIONS.length})`,
      { path },
    );
  if (version === MIGRATIONS.length) return;
  if (readonly) throw new StoreUnavailableError(`${path} needs a schema upgrade; open it writable`);
  const step = db.transaction(() => {
    for (let v = version; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  });
  step.immediate();
}

/** The driver's errors that mean the file cannot be used, as StoreUnavailableError; others unchanged. */
export function storeError(error: unknown, path: string): Error {
  const code = (error as { code?: string }).code ?? "";
  const message = (error as Error).message ?? String(error);
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED")
    return new StoreUnavailableError(
      `The database ${path} is locked by another process`,
      { path, code },
      error,
    );
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT")
    return new StoreUnavailableError(
      `${path} is not a readable memlane database (${message})`,
      { path, code },
      error,
    );
  if (
    code === "SQLITE_CANTOPEN" ||
    code === "SQLITE_READONLY" ||
    code === "SQLITE_IOERR" ||
    code === "SQLITE_PERM"
  )
    return new StoreUnavailableError(`Cannot open or write ${path}: ${message}`, { path, code }, error);
  return error as Error;
}
