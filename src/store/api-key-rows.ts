/** The `api_keys` row both SQL key stores keep (same columns), read back into a record. */
import type { ApiKeyRecord } from "./key-store.js";

/** A stored key from its row (snake_case columns; `revoked_at` null while the key works). */
export function apiKeyRecordOf(row: Record<string, unknown>): ApiKeyRecord {
  return {
    id: String(row.id),
    tenant: String(row.tenant),
    name: String(row.name),
    salt: String(row.salt),
    hash: String(row.hash),
    createdAt: String(row.created_at),
    revokedAt: row.revoked_at === null ? null : String(row.revoked_at),
  };
}
