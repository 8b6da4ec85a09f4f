import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../test/fixtures/engine.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";

describe("engine: reads never write; reindex fills what is missing", () => {
  it("recalls on a read-only database, and reindex stores vectors of a new embedder once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "memlane-reindex-"));
    const path = join(dir, "m.db");
    const first = await testMemlane({ store: path, strategy: "accumulate" });
    await first.ingest(demoTranscript);
    await first.close();

    // Another embedder: no stored vector fits it. Recall still works, on a read-only handle.
    const readOnly = await testMemlane({
      store: new SqliteStore(path, { readonly: true }),
      embedder: new HashEmbedder(128),
      strategy: "accumulate",
    });
    const turns = await readOnly.recall({ agent: "ava", query: "beagle", units: "turns", about: "sam" });
    assert.match(turns.hits[0]!.text, /beagle/);
    const memories = await readOnly.recall({ agent: "ava", query: "Where does Sam work?", about: "sam" });
    assert.ok(memories.hits.length > 0);
    await readOnly.close();

    const mem = await testMemlane({ store: path, embedder: new HashEmbedder(128), strategy: "accumulate" });
    const stats = await mem.inspect("ava");
    const report = await mem.reindex("ava");
    assert.equal(report.turns, stats.turns);
    assert.equal(report.memories, (stats.memories.active ?? 0) + (stats.memories.superseded ?? 0));
    assert.deepEqual(await mem.reindex("ava"), { turns: 0, memories: 0 });
    await mem.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
