/**
 * The KeyStore conformance suite on every implementation: SQLite (a file, reopened; and
 * ":memory:"), PGlite, and Postgres on a throwaway server (skips, saying why, where no server
 * binaries exist; CI requires them).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe } from "node:test";
import { openPostgresKeyStore } from "../adapters/postgres/key-store.js";
import { runKeyStoreConformance } from "../testing/key-store-conformance.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../testing/postgres-cluster.js";
import { openSqliteKeyStore } from "./sqlite/key-store.js";

const root = mkdtempSync(join(tmpdir(), "memlane-keys-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

runKeyStoreConformance("sqlite (file)", async () => {
  const path = join(root, `k${n++}.db`);
  return { store: await openSqliteKeyStore(path), reopen: () => openSqliteKeyStore(path) };
});
runKeyStoreConformance("sqlite (in memory)", async () => ({ store: await openSqliteKeyStore(":memory:") }));
// PGlite: one instance for these cases, a schema per store (starting one takes seconds). Stores
// of one directory share an instance that closes with the last of them, so a holder keeps it
// open between cases; a reopened store still reads what the closed one wrote.
const pgliteDir = join(root, "pglite");
let schemas = 0;
let holder: { close(): Promise<void> } | undefined;
before(async () => {
  holder = await openPostgresKeyStore(`pglite:${pgliteDir}`, "holder");
});
after(async () => {
  await holder?.close();
});
runKeyStoreConformance("pglite", async () => {
  const schema = `keys_${++schemas}`;
  return {
    store: await openPostgresKeyStore(`pglite:${pgliteDir}`, schema),
    reopen: () => openPostgresKeyStore(`pglite:${pgliteDir}`, schema),
  };
});

const skip = postgresSkipReason() ?? false;
describe("key store on a Postgres server", { skip }, () => {
  let cluster: PostgresCluster;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  runKeyStoreConformance("postgres", async () => {
    const url = await cluster.createDatabase();
    return { store: await openPostgresKeyStore(url), reopen: () => openPostgresKeyStore(url) };
  });
});
