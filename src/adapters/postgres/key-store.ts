/**
 * API keys in the Postgres store's database (table `api_keys`, schema step 2), on a connection of
 * their own; PGlite stores of one directory share one instance, so a server's memory store and
 * its keys can name the same `pglite:` directory.
 */
import { ConflictError } from "../../core/errors.js";
import { apiKeyRecordOf } from "../../store/api-key-rows.js";
import type { ApiKeyRecord, KeyStore } from "../../store/key-store.js";
import { openMigratedClient, type PostgresClientOptions } from "./open-store.js";
import { isConstraintError, storeError } from "./pg-errors.js";
import type { SqlClient, SqlRow } from "./sql-client.js";

/**
 * Opens the keys of the Postgres database a spec names, creating or upgrading memlane's schema
 * first (as the memory store would). In a process that has the store open with the same
 * timeouts, the keys share its pool (`options` sizes a pool only when none is open yet).
 * @throws {StoreUnavailableError} the database cannot be reached or is not memlane's
 */
export async function openPostgresKeyStore(
  spec: string,
  schema = "memlane",
  options: PostgresClientOptions = {},
): Promise<PostgresKeyStore> {
  return new PostgresKeyStore(await openMigratedClient(spec, schema, options));
}

export class PostgresKeyStore implements KeyStore {
  /** Prefer `openPostgresKeyStore`, which brings the schema up to date first. Owns `client`. */
  constructor(private readonly client: SqlClient) {}

  private async rows(sql: string, params: unknown[] = []): Promise<SqlRow[]> {
    try {
      return (await this.client.query(sql, params)).rows;
    } catch (error) {
      throw storeError(error, this.client.label);
    }
  }

  async add(record: ApiKeyRecord): Promise<void> {
    try {
      await this.client.query(
        "INSERT INTO api_keys (id, tenant, name, salt, hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        [record.id, record.tenant, record.name, record.salt, record.hash, record.createdAt, record.revokedAt],
      );
    } catch (error) {
      if (isConstraintError(error))
        throw new ConflictError(`An API key "${record.id}" exists already`, { field: "id" });
      throw storeError(error, this.client.label);
    }
  }

  async get(id: string): Promise<ApiKeyRecord | null> {
    const [row] = await this.rows("SELECT * FROM api_keys WHERE id = $1", [id]);
    return row ? apiKeyRecordOf(row) : null;
  }

  async list(tenant?: string): Promise<ApiKeyRecord[]> {
    const rows =
      tenant === undefined
        ? await this.rows("SELECT * FROM api_keys ORDER BY created_at, id")
        : await this.rows("SELECT * FROM api_keys WHERE tenant = $1 ORDER BY created_at, id", [tenant]);
    return rows.map(apiKeyRecordOf);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    try {
      const result = await this.client.query(
        "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL",
        [id, at],
      );
      return result.rowCount > 0;
    } catch (error) {
      throw storeError(error, this.client.label);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
