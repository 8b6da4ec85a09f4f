import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Memory } from "../core/types.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { memory, scopeA, scopeB, scopeOtherTenant, session, turn } from "../testing/rows.js";
import { MEMORY_WEIGHTS } from "./fusion.js";
import { InProcessRetriever } from "./in-process-retriever.js";

const embedder = new HashEmbedder(128);

async function storeWith(memories: Memory[], links: [Memory, Memory][] = []) {
  const store = new SqliteStore(":memory:");
  const vectors = await embedder.embed(memories.map((m) => m.text));
  await store.write(scopeA, {
    memories,
    embeddings: memories.map((m, i) => ({
      ownerKind: "memory",
      ownerId: m.id,
      model: embedder.name,
      vector: vectors[i]!,
    })),
    edges: links.map(([from, to], i) => ({
      id: `e${i}`,
      ...scopeA,
      from: from.id,
      to: to.id,
      type: "Cause",
      attributes: {},
      recordedAt: "",
    })),
  });
  return store;
}

describe("memory retriever", () => {
  it("favours the memory observed at the time the question asks about", async () => {
    const spring = memory(scopeA, "Sam went to a pottery class.", { observedAt: "2023-04-10T00:00:00.000Z" });
    const autumn = memory(scopeA, "Sam went to a pottery class again.", {
      observedAt: "2023-10-02T00:00:00.000Z",
    });
    const store = await storeWith([spring, autumn]);
    const retriever = new InProcessRetriever(store, embedder);
    const [april] = await retriever.searchMemories(scopeA, { query: "pottery class in April 2023", k: 1 });
    assert.equal(april!.id, spring.id);
    assert.ok(april!.explanation.time! > 0);
    const [october] = await retriever.searchMemories(scopeA, {
      query: "pottery class in October 2023",
      k: 1,
    });
    assert.equal(october!.id, autumn.id);
    await store.close();
  });

  it("favours the newer of two equally relevant memories when the question asks about now", async () => {
    const older = memory(scopeA, "Sam works at the bakery.", { observedAt: "2023-01-10T00:00:00.000Z" });
    const newer = memory(scopeA, "Sam works at the bakery.", { observedAt: "2023-06-10T00:00:00.000Z" });
    const store = await storeWith([newer, older]);
    const retriever = new InProcessRetriever(store, embedder);
    const [now] = await retriever.searchMemories(scopeA, { query: "Where does Sam work now?", k: 2 });
    assert.equal(now!.id, newer.id);
    assert.equal(now!.explanation.recency, 0.5);
    const plain = await retriever.searchMemories(scopeA, { query: "Where does Sam work?", k: 2 });
    assert.equal(plain[0]!.explanation.recency, undefined, "no present-tense cue, no recency signal");
    await store.close();
  });

  it("finds a memory through its source turn when its own sentence lost the question's words", async () => {
    const store = new SqliteStore(":memory:");
    await store.write(scopeA, {
      sessions: [session(scopeA, "s1"), session(scopeA, "s2")],
      turns: [
        turn(scopeA, "s1", 0, "sam", "I started learning the cello with a teacher from the orchestra."),
        turn(scopeA, "s2", 0, "sam", "I painted the fence blue."),
      ],
    });
    const hobby = memory(scopeA, "Sam has a new hobby.", { sourceTurns: ["s1:1"] });
    const fence = memory(scopeA, "Sam painted the fence.", { sourceTurns: ["s2:1"] });
    const vectors = await embedder.embed([hobby.text, fence.text]);
    await store.write(scopeA, {
      memories: [hobby, fence],
      embeddings: [hobby, fence].map((m, i) => ({
        ownerKind: "memory" as const,
        ownerId: m.id,
        model: embedder.name,
        vector: vectors[i]!,
      })),
    });
    const retriever = new InProcessRetriever(store, embedder);
    const [top] = await retriever.searchMemories(scopeA, { query: "Who teaches Sam the cello?", k: 2 });
    assert.equal(top!.id, hobby.id);
    assert.ok(top!.explanation.source! > 0);
    const without = await retriever.searchMemories(scopeA, {
      query: "Who teaches Sam the cello?",
      k: 2,
      weights: { ...MEMORY_WEIGHTS, source: 0 },
    });
    assert.equal(without[0]?.explanation.source, undefined);
    await store.close();
  });

  it("favours memories about the subject the question names", async () => {
    const sam = memory(scopeA, "Loves hiking in the hills.", { about: "sam" });
    const kim = memory(scopeA, "Loves hiking by the sea.", { about: "kim" });
    const store = await storeWith([sam, kim]);
    const [top] = await new InProcessRetriever(store, embedder).searchMemories(scopeA, {
      query: "Where does Kim love hiking?",
      k: 1,
    });
    assert.equal(top!.id, kim.id);
    assert.ok(top!.explanation.subject! > 0);
    await store.close();
  });

  it("expands through edges, when asked, to linked memories that share no words with the question", async () => {
    const cause = memory(scopeA, "Sam sprained an ankle playing football.");
    const effect = memory(scopeA, "Sam had to cancel the marathon plans.");
    const unrelated = memory(scopeA, "Sam bought a blue kettle.");
    const store = await storeWith([cause, effect, unrelated], [[cause, effect]]);
    const retriever = new InProcessRetriever(store, embedder);
    const plain = await retriever.searchMemories(scopeA, { query: "sprained ankle football", k: 3 });
    assert.equal(plain[1]?.explanation.neighbour, undefined, "memories do not expand by default");
    const weights = { ...MEMORY_WEIGHTS, neighbour: 0.5 };
    const hits = await retriever.searchMemories(scopeA, { query: "sprained ankle football", k: 3, weights });
    assert.deepEqual(
      hits.slice(0, 2).map((h) => h.id),
      [cause.id, effect.id],
    );
    assert.ok(hits[1]!.explanation.neighbour! > 0);
    const rrf = await new InProcessRetriever(store, embedder, "rrf").searchMemories(scopeA, {
      query: "sprained ankle",
      k: 3,
    });
    assert.equal(rrf[0]!.id, cause.id);
    assert.ok("score" in rrf[0]!.explanation && !("neighbour" in rrf[0]!.explanation));
    await store.close();
  });

  it("does not expand into memories the filter leaves out", async () => {
    const now = memory(scopeA, "Sam works as a nurse in Bristol.");
    const old = memory(scopeA, "Sam used to be a teacher.", { status: "superseded" });
    const store = await storeWith([now, old], [[now, old]]);
    const hits = await new InProcessRetriever(store, embedder).searchMemories(scopeA, {
      query: "nurse Bristol",
      k: 5,
      weights: { ...MEMORY_WEIGHTS, neighbour: 0.5 },
    });
    assert.deepEqual(
      hits.map((h) => h.id),
      [now.id],
    );
    await store.close();
  });

  it("sees what was committed after its index was built", async () => {
    const store = await storeWith([memory(scopeA, "Sam keeps bees.")]);
    const retriever = new InProcessRetriever(store, embedder);
    assert.equal((await retriever.searchMemories(scopeA, { query: "violin", k: 5 })).length, 1);
    const violin = memory(scopeA, "Sam started violin lessons.");
    await store.write(scopeA, {
      memories: [violin],
      embeddings: [
        {
          ownerKind: "memory",
          ownerId: violin.id,
          model: embedder.name,
          vector: (await embedder.embed([violin.text]))[0]!,
        },
      ],
    });
    const [top] = await retriever.searchMemories(scopeA, { query: "violin", k: 5 });
    assert.equal(top!.id, violin.id);
    await store.close();
  });

  it("answers bad input with an empty result, never a crash", async () => {
    const store = await storeWith([memory(scopeA, "Sam keeps bees.")]);
    const retriever = new InProcessRetriever(store, embedder);
    assert.deepEqual(await retriever.searchMemories(scopeA, { query: " ", k: 5 }), []);
    assert.deepEqual(await retriever.searchMemories(scopeA, { query: "bees", k: 0 }), []);
    assert.deepEqual(await retriever.searchMemories(scopeB, { query: "bees", k: 5 }), []);
    assert.deepEqual(await retriever.searchMemories(scopeOtherTenant, { query: "bees", k: 5 }), []);
    assert.equal((await retriever.searchMemories(scopeA, { query: "bees ".repeat(50_000), k: 5 })).length, 1);
    assert.ok(Array.isArray(await retriever.searchMemories(scopeA, { query: "Сэм держит пчёл 蜜蜂", k: 5 })));
    await store.close();
  });
});
