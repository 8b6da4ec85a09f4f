/**
 * The caller's corrections on the Postgres store, on a throwaway server and on PGlite: the same
 * chain the SQLite test walks (add, update, a refused update of the past version, restore, the
 * restore walked back), since restore writes through `WriteBatch.reinstate` in the SQL core.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import type { ConflictError } from "../../core/errors.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";

const quiet = { debug() {}, warn() {}, error() {} };

async function chain(store: string): Promise<void> {
  const mem = await testMemlane({ store, strategy: "accumulate", logger: quiet });
  try {
    const acme = mem.tenant("acme");
    const { memory: first } = await acme.add("ava", { about: "sam", text: "Sam works as a nurse in Leeds." });
    const { memory: fresh } = await acme.update("ava", first.id, "Sam works as a midwife in Leeds.");
    await assert.rejects(acme.update("ava", first.id, "Sam is a vet."), (e: ConflictError) => {
      assert.deepEqual(e.details.current, [fresh.id]);
      return true;
    });
    await assert.rejects(mem.tenant("globex").restore("ava", first.id), { code: "NOT_FOUND" });
    const { retired } = await acme.restore("ava", first.id);
    assert.deepEqual(
      retired.map((m) => m.id),
      [fresh.id],
    );
    assert.deepEqual(
      (await acme.memories("ava")).map((m) => m.id),
      [first.id],
    );
    const back = await acme.restore("ava", fresh.id);
    assert.deepEqual(
      back.retired.map((m) => m.id),
      [first.id],
    );
    const history = await acme.history("ava", first.id);
    assert.deepEqual(
      history.corrections.map((c) => c.type),
      ["ADD", "UPDATE", "RESTORE", "RESTORE"],
    );
    assert.match(history.corrections[3]!.text, /^retired on /);
    const hits = (await acme.recall({ agent: "ava", about: "sam", query: "midwife" })).hits;
    assert.ok(hits.some((h) => h.id === fresh.id));
  } finally {
    await mem.close();
  }
}

describe("corrections on PGlite", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-correct-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  it("adds, updates, restores and restores back", () => chain(`pglite:${join(dir, "pg")}`));
});

describe("corrections on a Postgres server", { skip: postgresSkipReason() ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());
  it("adds, updates, restores and restores back", async () => chain(await cluster!.createDatabase()));
});
