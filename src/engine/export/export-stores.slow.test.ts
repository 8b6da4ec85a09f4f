/**
 * Export and import across stores: a scope exported from SQLite, imported into Postgres (a
 * throwaway server, and PGlite) and exported again gives the same file byte for byte — ids,
 * times and every row kept, nothing normalised — and recall finds the same memories.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { demoTranscript, partnerLines, testMemlane } from "../../../test/fixtures/engine.js";
import {
  type PostgresCluster,
  postgresSkipReason,
  startPostgresCluster,
} from "../../testing/postgres-cluster.js";

/** The export without its header's `exportedAt`, the one thing two exports of the same rows differ in. */
const undated = (file: string) => file.replace(/"exportedAt":"[^"]*"/, '"exportedAt":"-"');

const quiet = { debug() {}, warn() {}, error() {} };

async function text(lines: AsyncIterable<string>): Promise<string> {
  let out = "";
  for await (const line of lines) out += line;
  return out;
}

async function roundTrip(store: string): Promise<void> {
  const source = await testMemlane({ strategy: "accumulate", logger: quiet });
  const target = await testMemlane({ store, strategy: "accumulate", logger: quiet });
  try {
    await source.ingest(demoTranscript);
    const { memory } = await source.add("ava", { about: "sam", text: "Sam is allergic to peanuts." });
    await source.update("ava", memory.id, "Sam is allergic to peanuts and cashews.");
    await source.ingest(
      partnerLines("bob", "kim", [["k1", "2024-05-01T09:00", "I play the cello on Sundays."]]),
    );
    const file = await text(source.export({ embeddings: true }));
    assert.match(file, /"agent":"bob"/);
    await target.import({ source: [file], batchRows: 7 });
    assert.equal(undated(await text(target.export({ embeddings: true }))), undated(file));
    for (const query of ["Where does Sam work?", "allergies", "Sam's dog"]) {
      const hits = async (m: typeof source) =>
        (await m.recall({ agent: "ava", scope: "agent", query })).hits.map((h) => h.id);
      assert.deepEqual(await hits(target), await hits(source), query);
    }
  } finally {
    await source.close();
    await target.close();
  }
}

describe("export SQLite, import into PGlite", () => {
  const dir = mkdtempSync(join(tmpdir(), "memlane-export-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  it("exports the same file again and recalls the same", () => roundTrip(`pglite:${join(dir, "pg")}`));
});

describe("export SQLite, import into a Postgres server", { skip: postgresSkipReason() ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  before(async () => {
    cluster = await startPostgresCluster();
  });
  after(() => cluster?.stop());
  it("exports the same file again and recalls the same", async () =>
    roundTrip(await cluster!.createDatabase()));
});
