/**
 * Export and import on a real conversation: LoCoMo's first dev conversation, consolidated by
 * carecall on SQLite, exported, imported into Postgres (a throwaway server; PGlite where none can
 * run) and exported again gives the same file, and every one of its QA questions recalls the same
 * memories in the same order with the same scores.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { testMemlane } from "../../../test/fixtures/engine.js";
import {
  findPostgresBinaries,
  type PostgresCluster,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";
import { readLocomo } from "../ingest/formats/locomo.js";
import type { Memlane } from "../memlane.js";

/** The export without its header's `exportedAt`, the one thing two exports of the same rows differ in. */
const undated = (file: string) => file.replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');

// LoCoMo is not in the repository: the folder MEMLANE_SHARED_DATA names holds it (CI sets it).
const LOCOMO = join(process.env.MEMLANE_SHARED_DATA ?? "/nonexistent", "locomo-dev/locomo-dev.json");
const quiet = { debug() {}, warn() {}, error() {} };

async function text(lines: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const line of lines) out += line;
  return out;
}

describe("export and import of a LoCoMo conversation", {
  skip:
    !existsSync(LOCOMO) && "LoCoMo is not here: set MEMLANE_SHARED_DATA to the folder holding locomo-dev/",
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-export-locomo-"));
  let cluster: PostgresCluster | undefined;
  let source: Memlane;
  let target: Memlane;
  before(async () => {
    if (findPostgresBinaries()) cluster = await startPostgresCluster();
    const store = cluster ? await cluster.createDatabase() : `pglite:${join(dir, "pg")}`;
    source = await testMemlane({ strategy: "carecall", logger: quiet });
    target = await testMemlane({ store, strategy: "carecall", logger: quiet });
  });
  after(async () => {
    await source?.close();
    await target?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("exports the same file from Postgres and recalls the same for every question", {
    timeout: 600_000,
  }, async () => {
    const [sample] = readLocomo(JSON.parse(readFileSync(LOCOMO, "utf8")));
    const agent = sample!.transcript.agent;
    await source.ingest(sample!.transcript);
    const file = await text(source.export({ agent }));
    const report = await target.import({ source: [file] });
    assert.ok(report.written.memories > 100 && report.written.turns > 100);
    assert.equal(undated(await text(target.export({ agent }))), undated(file));
    for (const { question } of sample!.qa) {
      const hits = async (m: Memlane) =>
        (await m.recall({ agent, scope: "agent", query: question })).hits.map((h) => [
          h.id,
          h.score.toFixed(6),
        ]);
      assert.deepEqual(await hits(target), await hits(source), question);
    }
  });
});
