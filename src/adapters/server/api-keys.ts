/**
 * API keys: made here, shown once, stored only as a salted SHA-256 of their secret (the KeyStore
 * port), and checked on every request. A key reads `mlk_<id>_<secret>`: the id finds the stored
 * record, the secret (32 random bytes) is compared by hash in constant time. The secret has 256
 * bits of entropy, so a fast salted hash is enough; a slow one (scrypt) would only slow requests.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { NotFoundError } from "../../core/errors.js";
import { idSchema, parseInput, tenantSchema } from "../../engine/api.js";
import type { ApiKeyRecord, KeyStore } from "../../store/key-store.js";

const PREFIX = "mlk";
const KEY_PATTERN = /^mlk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A key as `keys create` hands it out: the full key (shown once) and its stored record. */
export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

/** A key as `keys list` shows it: never the hash or the salt. */
export type KeySummary = Pick<ApiKeyRecord, "id" | "tenant" | "name" | "createdAt" | "revokedAt">;

/**
 * Makes a key for `tenant`, stores its hash, and returns the key: the only time it exists in
 * full.
 * @example const { key } = await createApiKey(keys, { tenant: "acme", name: "support bot" });
 * @throws {InvalidInputError} a blank tenant or name
 */
export async function createApiKey(
  keys: KeyStore,
  options: { tenant: string; name?: string; now?: Date },
): Promise<CreatedKey> {
  const tenant = parseInput(tenantSchema, options.tenant, "tenant");
  const name = options.name === undefined ? "" : parseInput(idSchema, options.name, "name");
  const id = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const salt = randomBytes(16).toString("hex");
  const record: ApiKeyRecord = {
    id,
    tenant,
    name,
    salt,
    hash: hashSecret(salt, secret),
    createdAt: (options.now ?? new Date()).toISOString(),
    revokedAt: null,
  };
  await keys.add(record);
  return { key: `${PREFIX}_${id}_${secret}`, record };
}

/**
 * The tenant a presented key works in, or null when the key is malformed, unknown, revoked or
 * wrong. Every failure answers the same, so a caller learns nothing about which it was.
 */
export async function tenantOfKey(keys: KeyStore, presented: string): Promise<string | null> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return null;
  const record = await keys.get(match[1]!);
  if (!record || record.revokedAt !== null) return null;
  const expected = Buffer.from(record.hash, "hex");
  const actual = Buffer.from(hashSecret(record.salt, match[2]!), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? record.tenant : null;
}

/** Revokes a key by its id (or the whole key). @throws {NotFoundError} no such working key */
export async function revokeApiKey(keys: KeyStore, idOrKey: string, now = new Date()): Promise<void> {
  const id = KEY_PATTERN.exec(idOrKey)?.[1] ?? idOrKey;
  if (!(await keys.revoke(id, now.toISOString())))
    throw new NotFoundError(`No API key "${id}" that is not revoked already`, { field: "id" });
}

/** What may be shown of a key. */
export function keySummary(record: ApiKeyRecord): KeySummary {
  const { id, tenant, name, createdAt, revokedAt } = record;
  return { id, tenant, name, createdAt, revokedAt };
}

function hashSecret(salt: string, secret: string): string {
  return createHash("sha256").update(salt).update(":").update(secret).digest("hex");
}
