/**
 * The KeyStore port: API keys of `memlane serve`, each bound to one tenant. A store keeps only a
 * salted hash of a key's secret; making and checking keys is the service's job (adapters/server/api-keys.ts).
 */

/** One stored API key, without its secret. */
export interface ApiKeyRecord {
  /** The public part of the key, also printed in `keys list`. */
  id: string;
  /** The tenant every request made with this key works in. */
  tenant: string;
  /** A label for people ("ci", "support bot"). */
  name: string;
  /** Hex salt mixed into the hash. */
  salt: string;
  /** Hex SHA-256 of salt and secret. */
  hash: string;
  createdAt: string;
  /** When the key was revoked; null while it works. */
  revokedAt: string | null;
}

/** Where API keys live. */
export interface KeyStore {
  /** Stores a new key. @throws {ConflictError} the id is taken */
  add(record: ApiKeyRecord): Promise<void>;
  /** The key with this id, revoked or not; null when there is none. */
  get(id: string): Promise<ApiKeyRecord | null>;
  /** Every key (of one tenant when given), oldest first. */
  list(tenant?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked at `at`; false when there is no such key or it was revoked already. */
  revoke(id: string, at: string): Promise<boolean>;
  close(): Promise<void>;
}
