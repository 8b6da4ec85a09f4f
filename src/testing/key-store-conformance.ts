/**
 * The KeyStore conformance suite: every store of API keys must pass it (SQLite, Postgres,
 * PGlite, yours). Call it with a factory that makes a fresh, empty key store, and, where the
 * store can be opened again over the same database, a way to do so.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConflictError } from "../core/errors.js";
import type { ApiKeyRecord, KeyStore } from "../store/key-store.js";

export type KeyStoreFactory = () => Promise<{
  store: KeyStore;
  /** A new store over the same database (the one before is closed first); absent in memory. */
  reopen?: () => Promise<KeyStore>;
  cleanup?: () => Promise<void> | void;
}>;

const key = (id: string, tenant: string, createdAt: string): ApiKeyRecord => ({
  id,
  tenant,
  name: `key ${id}`,
  salt: "00ff",
  hash: `hash-of-${id}`,
  createdAt,
  revokedAt: null,
});

/** Registers the suite's cases (node:test) under `name`. */
export function runKeyStoreConformance(name: string, factory: KeyStoreFactory): void {
  const using = async (body: (store: KeyStore, reopen?: () => Promise<KeyStore>) => Promise<void>) => {
    const { store, reopen, cleanup } = await factory();
    try {
      await body(store, reopen);
    } finally {
      await cleanup?.();
    }
  };

  describe(`KeyStore conformance: ${name}`, () => {
    it("keeps a key as given and finds it by id; an unknown id is null", async () => {
      await using(async (store) => {
        const record = key("k1", "acme", "2026-01-01T00:00:00.000Z");
        await store.add(record);
        assert.deepEqual(await store.get("k1"), record);
        assert.equal(await store.get("nope"), null);
        await store.close();
      });
    });

    it("refuses a second key with the same id and keeps the first", async () => {
      await using(async (store) => {
        await store.add(key("k1", "acme", "2026-01-01T00:00:00.000Z"));
        await assert.rejects(store.add(key("k1", "other", "2026-01-02T00:00:00.000Z")), ConflictError);
        assert.equal((await store.get("k1"))?.tenant, "acme");
        await store.close();
      });
    });

    it("lists every key oldest first, or one tenant's only", async () => {
      await using(async (store) => {
        await store.add(key("b", "acme", "2026-01-02T00:00:00.000Z"));
        await store.add(key("a", "beta", "2026-01-01T00:00:00.000Z"));
        await store.add(key("c", "acme", "2026-01-03T00:00:00.000Z"));
        assert.deepEqual(
          (await store.list()).map((k) => k.id),
          ["a", "b", "c"],
        );
        assert.deepEqual(
          (await store.list("acme")).map((k) => k.id),
          ["b", "c"],
        );
        assert.deepEqual(await store.list("nobody"), []);
        await store.close();
      });
    });

    it("revokes a key once; revoking again, or an unknown key, says false", async () => {
      await using(async (store) => {
        await store.add(key("k1", "acme", "2026-01-01T00:00:00.000Z"));
        assert.equal(await store.revoke("k1", "2026-02-01T00:00:00.000Z"), true);
        assert.equal((await store.get("k1"))?.revokedAt, "2026-02-01T00:00:00.000Z");
        assert.equal(await store.revoke("k1", "2026-03-01T00:00:00.000Z"), false);
        assert.equal(
          (await store.get("k1"))?.revokedAt,
          "2026-02-01T00:00:00.000Z",
          "the first revocation stands",
        );
        assert.equal(await store.revoke("nope", "2026-02-01T00:00:00.000Z"), false);
        await store.close();
      });
    });

    it("still holds its keys, revocations included, when opened again", async (t) => {
      await using(async (store, reopen) => {
        if (!reopen) {
          t.skip("this store cannot be opened again");
          await store.close();
          return;
        }
        await store.add(key("k1", "acme", "2026-01-01T00:00:00.000Z"));
        await store.add(key("k2", "acme", "2026-01-02T00:00:00.000Z"));
        await store.revoke("k2", "2026-02-01T00:00:00.000Z");
        await store.close();
        const again = await reopen();
        assert.deepEqual(
          (await again.list()).map((k) => [k.id, k.revokedAt]),
          [
            ["k1", null],
            ["k2", "2026-02-01T00:00:00.000Z"],
          ],
        );
        await again.close();
      });
    });

    it("answers many readers and writers at once without losing a key", async () => {
      await using(async (store) => {
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.add(
              key(
                `k${String(i).padStart(2, "0")}`,
                i % 2 ? "acme" : "beta",
                `2026-01-01T00:00:${String(i).padStart(2, "0")}.000Z`,
              ),
            ),
          ),
        );
        assert.equal((await store.list()).length, 20);
        assert.equal((await store.list("acme")).length, 10);
        await store.close();
      });
    });
  });
}
