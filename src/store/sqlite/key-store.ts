/**
 * API keys in the SQLite store's file (table `api_keys`, schema step 4). A connection of its own
 * beside the engine's: WAL lets both read and write the same file. Writes first await a forget
 * this process runs on the file (write-gate.ts), so they never sleep on its lock.
 */
import Database from "better-sqlite3";
import { ConflictError, MemlaneError, StoreUnavailableError } from "../../core/errors.js";
import { apiKeyRecordOf } from "../api-key-rows.js";
import type { ApiKeyRecord, KeyStore } from "../key-store.js";
import type { Row } from "../sql/rows.js";
import { MIGRATIONS } from "./migrations.js";
import { SqliteStore } from "./sqlite-store.js";
import { writesOpen } from "./write-gate.js";

/** The schema step (migrations.ts) that made the api_keys table. */
const API_KEYS_STEP = 4;

/**
 * Opens the keys of the memlane database at `path`, creating the file and upgrading its schema
 * first when needed (as the memory store would). ":memory:" gives a private in-memory table.
 * @throws {StoreUnavailableError} the file cannot be opened or is not memlane's
 */
export async function openSqliteKeyStore(path: string): Promise<SqliteKeyStore> {
  // The memory store owns the schema: opening it once applies every migration step.
  if (path !== ":memory:") await new SqliteStore(path).close();
  return new SqliteKeyStore(path);
}

export class SqliteKeyStore implements KeyStore {
  private readonly db: Database.Database;
  private byId?: Database.Statement;

  /** Prefer `openSqliteKeyStore`, which brings the schema up to date first. */
  constructor(readonly path: string) {
    try {
      this.db = new Database(path);
      this.db.pragma("busy_timeout = 5000");
      // A private in-memory database holds only the keys table, made by its own schema step.
      if (path === ":memory:") this.db.exec(MIGRATIONS[API_KEYS_STEP - 1]!);
      this.db.prepare("SELECT 1 FROM api_keys LIMIT 1").get();
    } catch (error) {
      throw new StoreUnavailableError(`Cannot open the API keys of ${path}: ${(error as Error).message}`, {
        path,
      });
    }
  }

  async add(record: ApiKeyRecord): Promise<void> {
    await writesOpen(this.path);
    try {
      this.db
        .prepare(
          "INSERT INTO api_keys (id, tenant, name, salt, hash, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(
          record.id,
          record.tenant,
          record.name,
          record.salt,
          record.hash,
          record.createdAt,
          record.revokedAt,
        );
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_PRIMARYKEY")
        throw new ConflictError(`An API key "${record.id}" exists already`, { field: "id" });
      throw wrap(error, this.path);
    }
  }

  async get(id: string): Promise<ApiKeyRecord | null> {
    // Every request asks: the statement is prepared once.
    this.byId ??= this.db.prepare("SELECT * FROM api_keys WHERE id = ?");
    const row = this.byId.get(id) as Row | undefined;
    return row ? apiKeyRecordOf(row) : null;
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    const rows = (
      tenant === undefined
        ? this.db.prepare("SELECT * FROM api_keys ORDER BY created_at, id").all()
        : this.db.prepare("SELECT * FROM api_keys WHERE tenant = ? ORDER BY created_at, id").all(tenant)
    ) as Row[];
    return rows.map(apiKeyRecordOf);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    await writesOpen(this.path);
    const result = this.db
      .prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
      .run(at, id);
    return result.changes > 0;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

function wrap(error: unknown, path: string): MemlaneError {
  if (error instanceof MemlaneError) return error;
  return new StoreUnavailableError(`API keys of ${path}: ${(error as Error).message}`, { path }, error);
}
