/**
 * Scope affinity: which replica of a `memlane serve` fleet is a scope's home. Every replica can
 * answer every scope, since they share one store; what a home saves is the cold load. A replica
 * keeps the search indexes of a scope it has loaded, so when a load balancer sends each scope to
 * one replica, each holds only its share of the scopes instead of all of them.
 *
 * The routing key of a scope is its tenant and agent, each percent-encoded, joined by "/"
 * (`acme/ava`; `a%2Fb/ava` for the tenant "a/b"). The home of a key among n replicas is the one a
 * load balancer hashing the key with nginx's `hash` (not `consistent`) picks when all are up:
 * `((crc32(key) >>> 16) & 0x7fff) mod n`, counting replicas from 1 in the order they are listed.
 * nginx documents it as compatible with Cache::Memcached, and HAProxy can compute it with its
 * `crc32`, `div`, `and` and `mod` converters (docs/postgres.md). A replica that knows its share
 * can then tell which scopes are its own.
 */
import { InvalidInputError } from "./errors.js";
import type { Scope } from "./types.js";

/** A replica's place in its fleet: replica `index` (counted from 1) of `of`. */
export interface ReplicaShare {
  index: number;
  of: number;
}

/** The request and response header that carries a scope's routing key. */
export const SCOPE_HEADER = "Memlane-Scope";

/** The routing key of a scope: tenant and agent, each percent-encoded, joined by "/". */
export function scopeRoute(scope: Scope): string {
  return `${encodeURIComponent(scope.tenant)}/${encodeURIComponent(scope.agent)}`;
}

/** The replica (counted from 1) that is home to a routing key among `of` replicas. */
export function homeOf(route: string, of: number): number {
  return (((crc32(new TextEncoder().encode(route)) >>> 16) & 0x7fff) % of) + 1;
}

/** Whether the scope is in the share of this replica (every scope is, without a share). */
export function isHome(share: ReplicaShare | null | undefined, scope: Scope): boolean {
  return !share || homeOf(scopeRoute(scope), share.of) === share.index;
}

/** "1/2" as a share; anything else is an InvalidInputError naming `field`. */
export function parseReplicaShare(text: string, field = "replica"): ReplicaShare {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const share = match ? { index: Number(match[1]), of: Number(match[2]) } : null;
  if (!share) throw invalidShare(field, `not "${text}"`);
  return checkReplicaShare(share, field);
}

/** The share as given, when its numbers make sense; otherwise an InvalidInputError naming `field`. */
export function checkReplicaShare(share: unknown, field = "replica"): ReplicaShare {
  const { index, of } = (share ?? {}) as Partial<ReplicaShare>;
  if (typeof share !== "object" || share === null || !Number.isInteger(of) || !Number.isInteger(index))
    throw invalidShare(field, `not ${JSON.stringify(share)}`);
  if (of! < 1 || of! > 1024) throw invalidShare(field, `between 1 and 1024 replicas, not ${of}`);
  if (index! < 1 || index! > of!) throw invalidShare(field, `a replica from 1 to ${of}, not ${index}`);
  return { index: index!, of: of! };
}

/** The share as its flag writes it ("1/2"). */
export function formatReplicaShare(share: ReplicaShare): string {
  return `${share.index}/${share.of}`;
}

function invalidShare(field: string, what: string): InvalidInputError {
  return new InvalidInputError(
    `${field} must be this replica's place among the replicas, as "index/count" counted from 1 (e.g. 1/2): ${what}`,
    { field },
  );
}

/** CRC-32 as zlib, Ethernet and PNG compute it (polynomial 0xEDB88320, reflected), unsigned. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
