/**
 * The Postgres store on a real server: a throwaway cluster for this file, a fresh database per
 * store. Skips (saying why) where no Postgres server binaries exist; CI requires them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { StoreUnavailableError } from "../../src/core/errors.js";
import { resolveStore } from "../../src/engine/config.js";
import { openPostgresStore } from "../../src/store/postgres/open-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../src/testing/postgres-cluster.js";
import { memory, scopeA, session } from "../../src/testing/rows.js";
import { runStoreConformance } from "../../src/testing/store-conformance.js";

const skip = postgresSkipReason() ?? false;
let cluster: PostgresCluster | undefined;

describe("postgres store (real server)", { skip }, () => {
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });

  runStoreConformance("postgres (server)", async () => {
    const url = await cluster!.createDatabase();
    return { store: resolveStore(url), spec: url };
  });

  it("migrates once when several processes' stores start together, and records the steps", async () => {
    const url = await cluster!.createDatabase();
    const stores = Array.from({ length: 4 }, () => openPostgresStore(url));
    await Promise.all(stores.map((s, i) => s.write(scopeA, { sessions: [session(scopeA, `s${i}`)] })));
    assert.equal((await stores[0]!.listSessions(scopeA)).length, 4);
    await Promise.all(stores.map((s) => s.close()));
  });

  it("keeps its tables in their own schema, tenant first in every key", async () => {
    const url = await cluster!.createDatabase();
    const store = openPostgresStore(url);
    await store.write(scopeA, { memories: [memory(scopeA, "x")] });
    await store.close();
    const pg = (await import("pg")).default;
    const client = new pg.Client(url);
    await client.connect();
    const keys = await client.query(
      `SELECT c.conrelid::regclass::text AS t, a.attname AS first FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       WHERE c.contype IN ('p', 'u', 'f') AND c.connamespace = 'memlane'::regnamespace`,
    );
    await client.end();
    const notTenant = keys.rows.filter(
      (r) => r.first !== "tenant" && !/api_keys|schema_migrations/.test(r.t),
    );
    assert.ok(keys.rows.length >= 10);
    assert.deepEqual(notTenant, []);
  });

  it("reports a server it cannot reach as unavailable", async () => {
    const store = openPostgresStore("postgres://postgres@127.0.0.1:1/none");
    await assert.rejects(store.listSessions(scopeA), StoreUnavailableError);
    await store.close();
  });
});
