/**
 * The IngestJobStore port on every implementation: SQLite (a file, reopened; and ":memory:"),
 * Postgres on a throwaway server (skips, saying why, where no server binaries exist; CI requires
 * them), Postgres on PGlite, and the in-process default. The same cases run on each.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { openPostgresIngestJobStore } from "../adapters/postgres/ingest-job-store.js";
import {
  at,
  runIngestJobStoreConformance as ingestJobStoreCases,
  job,
} from "../testing/ingest-job-store-conformance.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../testing/postgres-cluster.js";
import { MemoryIngestJobStore } from "./memory-ingest-job-store.js";
import { openIngestJobStore } from "./open-ingest-job-store.js";
import { APPLICATION_ID, MIGRATIONS } from "./sqlite/migrations.js";

const dir = mkdtempSync(join(tmpdir(), "memlane-ingest-jobs-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

ingestJobStoreCases("sqlite (file)", async () => {
  const path = join(dir, `jobs-${++files}.db`);
  return {
    store: await openIngestJobStore(`sqlite:${path}`),
    reopen: () => openIngestJobStore(path),
    rawTranscripts: async (tenant, id) => {
      const raw = new Database(path, { readonly: true });
      try {
        return (
          raw.prepare("SELECT transcripts FROM ingest_jobs WHERE tenant = ? AND id = ?").get(tenant, id) as {
            transcripts: unknown;
          }
        ).transcripts;
      } finally {
        raw.close();
      }
    },
  };
});
ingestJobStoreCases("sqlite (:memory:)", async () => ({ store: await openIngestJobStore(":memory:") }));
ingestJobStoreCases("in process (createService's default)", async () => ({
  store: new MemoryIngestJobStore(),
}));

describe("ingest job store: sqlite schema", () => {
  it("adds the table to a database written before it (schema step 4), keeping what it held", async () => {
    const path = join(dir, "old.db");
    const old = new Database(path);
    for (const step of MIGRATIONS.slice(0, 4)) old.exec(step);
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma("user_version = 4");
    old
      .prepare("INSERT INTO api_keys (id, tenant, name, salt, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run("k1", "acme", "ci", "00", "ff", at(0));
    old.close();
    const store = await openIngestJobStore(path);
    await store.add(job("acme", "j1", at(1)));
    assert.equal((await store.list("acme")).length, 1);
    await store.close();
    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma("user_version", { simple: true }), MIGRATIONS.length);
    assert.equal((raw.prepare("SELECT count(*) AS n FROM api_keys").get() as { n: number }).n, 1);
    raw.close();
  });
});

// PGlite: one instance for these cases, a schema per store (starting one takes seconds). Stores
// of one directory share an instance that closes with the last of them, so a holder keeps it
// open between cases; a reopened store still reads what the closed one wrote.
const pgliteDir = mkdtempSync(join(tmpdir(), "memlane-ingest-jobs-pglite-"));
let schemas = 0;
let holder: { close(): Promise<void> } | undefined;
before(async () => {
  holder = await openPostgresIngestJobStore(`pglite:${pgliteDir}`, "holder");
});
after(async () => {
  await holder?.close();
  rmSync(pgliteDir, { recursive: true, force: true });
});
ingestJobStoreCases("postgres (PGlite)", async () => {
  const schema = `ingest_${++schemas}`;
  return {
    store: await openPostgresIngestJobStore(`pglite:${pgliteDir}`, schema),
    reopen: () => openPostgresIngestJobStore(`pglite:${pgliteDir}`, schema),
  };
});

const skip = postgresSkipReason() ?? false;
let cluster: PostgresCluster | undefined;

describe("ingest job store on a Postgres server", { skip }, () => {
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(async () => {
    await cluster?.stop();
  });
  ingestJobStoreCases("postgres (server)", async () => {
    const url = await cluster!.createDatabase();
    const pg = (await import("pg")).default;
    return {
      store: await openIngestJobStore(url),
      reopen: () => openIngestJobStore(url),
      rawTranscripts: async (tenant, id) => {
        const client = new pg.Client(url);
        await client.connect();
        try {
          const result = await client.query(
            "SELECT transcripts FROM memlane.ingest_jobs WHERE tenant = $1 AND id = $2",
            [tenant, id],
          );
          return result.rows[0]?.transcripts;
        } finally {
          await client.end();
        }
      },
    };
  });
});
