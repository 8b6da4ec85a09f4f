/**
 * One-call writes on the Postgres store (PGlite, and a throwaway server where one is installed):
 * an idempotency key held by the store across two engines on one database, as two replicas
 * behind a load balancer are, `infer: false`'s one-transaction write, and a keyed write cut
 * short part-way finished by its retry after a restart.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { resumesCutShort } from "../../../test/fixtures/cut-short-write.js";
import { testMemlane } from "../../../test/fixtures/engine.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";

const quiet = { debug() {}, warn() {}, error() {} };

const exchange = [
  { role: "user" as const, content: "I adopted a beagle called Biscuit." },
  { role: "assistant" as const, content: "Biscuit is a lovely name!" },
];

/** Two engines over one store: the second answers the first's key without storing again. */
async function replicas(store: string, concurrent: boolean): Promise<void> {
  const one = await testMemlane({ store, strategy: "accumulate", logger: quiet });
  const two = concurrent ? await testMemlane({ store, strategy: "accumulate", logger: quiet }) : null;
  try {
    const call = { agent: "ava", partner: "kim", messages: exchange, idempotencyKey: "replica-key" };
    const first = await one.add(call);
    const other = two ?? one;
    const again = await other.add(call);
    assert.equal(again.replayed, true);
    assert.equal(again.session.id, first.session.id);
    assert.equal((await other.turns("ava")).length, 2);
    const plain = await one.add({ ...call, idempotencyKey: "plain", infer: false });
    assert.equal((await other.getSession("ava", plain.session.id))?.status, "consolidated");
    assert.equal((await other.add({ ...call, idempotencyKey: "plain", infer: false })).replayed, true);
    await one.idle();
    await two?.idle();
    assert.equal((await other.sessions("ava")).length, 2);
    assert.equal((await other.turns("ava")).length, 4);
    const hits = (await other.recall({ agent: "ava", about: "kim", query: "beagle", units: "turns" })).hits;
    assert.ok(hits.length >= 1);
  } finally {
    await one.close();
    await two?.close();
  }
}

describe("one-call writes on PGlite", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-messages-pg-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  it("holds an idempotency key in the store, and writes infer: false whole", () =>
    replicas(`pglite:${join(dir, "pg")}`, false));
});

describe("a keyed one-call write cut short on PGlite, sent again", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-messages-cut-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  for (const strategy of ["creem", "memochat"])
    it(`${strategy}: the retry stores the rest through the per-turn path and closes`, () =>
      resumesCutShort(`pglite:${join(dir, strategy)}`, strategy, 3));
});

describe("one-call writes on a Postgres server", { skip: postgresSkipReason() ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());
  it("holds an idempotency key across two engines on one database", async () =>
    replicas(await cluster!.createDatabase(), true));
  it("finishes a keyed creem write cut short part-way, after a restart", async () =>
    resumesCutShort(await cluster!.createDatabase(), "creem", 3));
});
