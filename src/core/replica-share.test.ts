/**
 * Scope affinity's arithmetic: the routing key, the CRC-32 under it, the home replica as nginx's
 * `hash` picks it, and the share's parsing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crc32 as zlibCrc32 } from "node:zlib";
import { InvalidInputError } from "./errors.js";
import { crc32, formatReplicaShare, homeOf, isHome, parseReplicaShare, scopeRoute } from "./replica-share.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("scope affinity", () => {
  it("names a scope by its tenant and agent, each percent-encoded, so a '/' in an id stays unambiguous", () => {
    assert.equal(scopeRoute({ tenant: "acme", agent: "ava" }), "acme/ava");
    assert.equal(scopeRoute({ tenant: "a/b", agent: "c" }), "a%2Fb/c");
    assert.equal(scopeRoute({ tenant: "a", agent: "b/c" }), "a/b%2Fc");
    assert.equal(scopeRoute({ tenant: "zoë co", agent: "ava" }), "zo%C3%AB%20co/ava");
  });

  it("computes the CRC-32 of zlib, Ethernet and PNG (the one nginx and HAProxy hash with)", () => {
    assert.equal(crc32(bytes("123456789")), 0xcbf43926, "the standard check value");
    for (const s of ["", "acme/ava", "zo%C3%AB%20co/ava", "x".repeat(1000)])
      assert.equal(crc32(bytes(s)), zlibCrc32(s), s.slice(0, 20));
  });

  it("puts a scope at home where nginx's hash would send it: ((crc32 >> 16) & 0x7fff) mod n, counted from 1", () => {
    const route = "acme/ava";
    const bucket = (zlibCrc32(route) >>> 16) & 0x7fff;
    for (const n of [1, 2, 3, 7]) assert.equal(homeOf(route, n), (bucket % n) + 1);
    // Spread: 1,000 scopes over 4 replicas, none far from a quarter.
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 1000; i++) counts[homeOf(scopeRoute({ tenant: `t${i}`, agent: "ava" }), 4) - 1]!++;
    for (const c of counts) assert.ok(c > 180 && c < 320, `${counts}`);
  });

  it("says every scope is home without a share, and exactly one replica's with one", () => {
    const scope = { tenant: "acme", agent: "ava" };
    assert.equal(isHome(null, scope), true);
    const homes = [1, 2, 3].filter((index) => isHome({ index, of: 3 }, scope));
    assert.deepEqual(homes, [homeOf("acme/ava", 3)]);
  });

  it("reads a share as index/count counted from 1, and refuses anything else by name", () => {
    assert.deepEqual(parseReplicaShare("1/2"), { index: 1, of: 2 });
    assert.deepEqual(parseReplicaShare(" 3 / 3 "), { index: 3, of: 3 });
    assert.equal(formatReplicaShare({ index: 2, of: 5 }), "2/5");
    for (const bad of ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", "-1/2", "1.5/2", ""])
      assert.throws(
        () => parseReplicaShare(bad, "--replica"),
        (e: unknown) =>
          e instanceof InvalidInputError && e.details.field === "--replica" && /index\/count/.test(e.message),
        bad,
      );
  });
});
