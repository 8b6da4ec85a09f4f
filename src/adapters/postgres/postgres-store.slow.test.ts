/**
 * The Postgres store on a real server: a throwaway cluster for this file, a fresh database per
 * store. Skips (saying why) where no Postgres server binaries exist; CI requires them.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { servedUrl } from "../../../test/fixtures/served-url.js";
import { main } from "../../cli/main.js";
import { ConflictError, StoreUnavailableError } from "../../core/errors.js";
import { resolveStore } from "../../engine/config.js";
import { openKeyStore } from "../../store/open-key-store.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";
import { memory, scopeA, session } from "../../testing/rows.js";
import { runStoreConformance } from "../../testing/store-conformance.js";
import { POSTGRES_MIGRATIONS } from "./migrations.js";
import { openPostgresStore } from "./open-store.js";

const skip = postgresSkipReason() ?? false;
const CLI = new URL("../../cli/main.ts", import.meta.url).pathname;

/**
 * Runs the CLI in this process, capturing what it prints (strings only: the test runner's own
 * reports, written meanwhile, are buffers).
 */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write, err: process.stderr.write };
  const into = (sink: string[], original: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) =>
      typeof chunk === "string"
        ? sink.push(chunk) > 0
        : (original as (...a: unknown[]) => boolean).call(
            process.stdout,
            chunk,
            ...rest,
          )) as typeof process.stdout.write;
  process.stdout.write = into(out, write.out);
  process.stderr.write = into(err, write.err);
  try {
    const code = await main(["node", "memlane", ...args]);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}
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
    return { store: await resolveStore(url), spec: url };
  });

  it("migrates once when several processes' stores start together, and records the steps", async () => {
    const url = await cluster!.createDatabase();
    const stores = Array.from({ length: 4 }, () => openPostgresStore(url));
    await Promise.all(stores.map((s, i) => s.write(scopeA, { sessions: [session(scopeA, `s${i}`)] })));
    assert.equal((await stores[0]!.listSessions(scopeA)).length, 4);
    await Promise.all(stores.map((s) => s.close()));
    const pg = (await import("pg")).default;
    const client = new pg.Client(url);
    await client.connect();
    const steps = await client.query("SELECT version FROM memlane.schema_migrations ORDER BY version");
    await client.end();
    assert.deepEqual(
      steps.rows.map((r) => r.version),
      POSTGRES_MIGRATIONS.map((_, i) => i + 1),
    );
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

  it("keeps API keys: add, get, list by tenant, revoke once, a taken id is a conflict", async () => {
    const url = await cluster!.createDatabase();
    const keys = await openKeyStore(url);
    const record = (id: string, tenant: string) => ({
      id,
      tenant,
      name: "ci",
      salt: "00",
      hash: "ff",
      createdAt: `2026-01-0${id.length}T00:00:00.000Z`,
      revokedAt: null,
    });
    await keys.add(record("k1", "acme"));
    await keys.add(record("k22", "initech"));
    await assert.rejects(keys.add(record("k1", "acme")), ConflictError);
    assert.equal((await keys.get("k1"))?.tenant, "acme");
    assert.equal(await keys.get("nope"), null);
    assert.deepEqual(
      (await keys.list()).map((k) => k.id),
      ["k1", "k22"],
    );
    assert.deepEqual(
      (await keys.list("initech")).map((k) => k.id),
      ["k22"],
    );
    assert.equal(await keys.revoke("k1", "2026-02-01T00:00:00.000Z"), true);
    assert.equal(await keys.revoke("k1", "2026-02-02T00:00:00.000Z"), false);
    assert.equal((await keys.get("k1"))?.revokedAt, "2026-02-01T00:00:00.000Z");
    await keys.close();
  });

  it("memlane keys and memlane serve work on --db postgres://…", async () => {
    const url = await cluster!.createDatabase();
    const made = await cli("--db", url, "--json", "keys", "create", "--tenant", "acme");
    assert.equal(made.code, 0, made.stderr);
    const { key } = JSON.parse(made.stdout) as { key: string };
    const child = spawn(
      process.execPath,
      ["--import", "tsx", CLI, "--db", url, "--json", "serve", "--port", "0"],
      {
        env: { ...process.env, MEMLANE_EMBEDDER: "hash" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      const served = await servedUrl(child);
      const created = await fetch(`${served}/v1/sessions`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ agent: "ava", partner: "sam", id: "s1" }),
      });
      assert.equal(created.status, 201);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    }
    const store = await resolveStore(url);
    assert.ok(await store.getSession({ tenant: "acme", agent: "ava" }, "s1"));
    await store.close();
  });

  it("refuses a schema of another program's tables, and one newer than this memlane", async () => {
    const pg = (await import("pg")).default;
    const foreign = await cluster!.createDatabase();
    const client = new pg.Client(foreign);
    await client.connect();
    await client.query("CREATE SCHEMA memlane; CREATE TABLE memlane.sessions (id int)");
    await client.end();
    const refused = openPostgresStore(foreign);
    await assert.rejects(refused.listSessions(scopeA), /not memlane's/);
    await refused.close();
    const newer = await cluster!.createDatabase();
    const store = openPostgresStore(newer);
    await store.listSessions(scopeA);
    await store.client.query("INSERT INTO memlane.schema_migrations (version) VALUES (99)");
    await store.close();
    const again = openPostgresStore(newer);
    await assert.rejects(
      again.listSessions(scopeA),
      (e: unknown) => e instanceof StoreUnavailableError && /newer memlane/.test(String(e)),
    );
    await again.close();
  });

  it("reports a server it cannot reach as unavailable", async () => {
    const store = openPostgresStore("postgres://postgres@127.0.0.1:1/none");
    await assert.rejects(store.listSessions(scopeA), StoreUnavailableError);
    await store.close();
  });
});
