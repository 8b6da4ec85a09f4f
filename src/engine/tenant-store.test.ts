import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { demoTranscript, testMemlane } from "../../test/fixtures/engine.js";
import { InvalidInputError, NotFoundError } from "../core/errors.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { InProcessRetriever } from "../retrieval/in-process-retriever.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";

describe("engine: one Memlane, many tenants", () => {
  it("lets no read, write or index invalidation cross between tenant views", async () => {
    const store = new SqliteStore(":memory:");
    const embedder = new HashEmbedder();
    const retriever = new InProcessRetriever(store, embedder);
    const mem = await testMemlane({ store, embedder, retriever, strategy: "carecall" });
    const acme = mem.tenant("acme");
    const globex = mem.tenant("globex");
    const scopeAcme = acme.scope("ava");
    const scopeGlobex = globex.scope("ava");

    const seenByAcme: string[] = [];
    acme.on("operation", (o) => seenByAcme.push(o.tenant));
    acme.on("job", (j) => seenByAcme.push(j.tenant));

    // The same agent and session ids in both tenants never collide.
    await acme.ingest(demoTranscript);
    const s = await globex.session({ agent: "ava", partner: "sam", id: "s1", at: "2024-05-01T10:00" });
    await s.turn("sam", "I moved to Oslo last month and I started keeping bees on my roof.");
    await (await s.close()).done;

    const acmeMemories = await acme.memories("ava");
    const globexMemories = await globex.memories("ava");
    assert.ok(acmeMemories.length > 0 && globexMemories.length > 0);
    assert.ok(acmeMemories.every((m) => m.tenant === "acme" && !/bees/.test(m.text)));
    assert.ok(globexMemories.every((m) => m.tenant === "globex" && !/beagle|Bristol/.test(m.text)));

    // Every read of one tenant misses the other's ids.
    const foreign = acmeMemories[0]!;
    await assert.rejects(globex.history("ava", foreign.id), NotFoundError);
    await assert.rejects(globex.timeline("ava", foreign.id), NotFoundError);
    await assert.rejects(globex.resume("ava", "s2"), NotFoundError);
    const recalled = await globex.recall({
      agent: "ava",
      query: "Where does Sam live? Bristol beagle Leeds",
      about: "sam",
    });
    assert.ok(recalled.hits.every((h) => h.memory?.tenant === "globex"));
    const turns = await globex.recall({
      agent: "ava",
      query: "beagle Biscuit",
      units: "turns",
      about: "sam",
    });
    assert.ok(turns.hits.every((h) => !/Biscuit/.test(h.text)));
    assert.deepEqual(await globex.failures("ava"), []);
    assert.deepEqual(await globex.agents(), ["ava"]);
    assert.ok(globex.jobs().every((j) => j.tenant === "globex") && globex.jobs().length === 1);
    assert.ok(acme.jobs().every((j) => j.tenant === "acme"));
    assert.equal((await globex.inspect("ava")).sessions, 1);

    // A write (or forget) in one tenant keeps the other's change version and cached index.
    const acmeIndex = await retriever.index(scopeAcme);
    const acmeVersion = await store.changeVersion(scopeAcme);
    const s2 = await globex.session({ agent: "ava", partner: "sam", at: "2024-06-01T10:00" });
    await s2.turn("sam", "The bees swarmed yesterday.");
    await (await s2.close()).done;
    await assert.rejects(
      globex.forget({ agent: "ava", memoryIds: [foreign.id] }),
      NotFoundError,
      "a foreign id is not found, and forgets nothing",
    );
    await globex.forget({ agent: "ava", about: "sam" });
    await globex.retry("ava");
    await globex.reindex("ava");
    assert.equal(await store.changeVersion(scopeAcme), acmeVersion);
    assert.equal(await retriever.index(scopeAcme), acmeIndex, "acme's index was not rebuilt");
    assert.notEqual(await store.changeVersion(scopeGlobex), "0");
    assert.ok(await acme.history("ava", foreign.id), "acme's memory is still there");
    assert.equal((await acme.memories("ava")).length, acmeMemories.length);
    assert.ok(seenByAcme.length > 0 && seenByAcme.every((t) => t === "acme"), "events stay in their tenant");
    await mem.close();
  });

  it("refuses a blank tenant", async () => {
    const mem = await testMemlane();
    assert.throws(() => mem.tenant(""), InvalidInputError);
    assert.throws(() => mem.tenant(" acme"), InvalidInputError);
    await mem.close();
    await assert.rejects(testMemlane({ tenant: "" }), InvalidInputError);
  });
});
