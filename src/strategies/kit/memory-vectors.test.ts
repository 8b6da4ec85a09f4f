/**
 * `nearestMemories`: what consolidation compares a new statement with (CareCall's top 5,
 * Theanine's top j, EMMA's shortlist), answered from the live index. It must be exactly the list
 * that ranking every listed memory by cosine gives (the strategies' path without it), equal
 * scores in the store's order, whatever was written since the index was built and even for
 * memories stored without a vector.
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../core/memory-graph.js";
import type { Memory, MemoryFilter } from "../../core/types.js";
import { HashEmbedder } from "../../models/hash-embedder.js";
import { EngineCaches } from "../../retrieval/engine-caches.js";
import { InProcessRetriever } from "../../retrieval/in-process-retriever.js";
import { SqliteStore } from "../../store/sqlite/sqlite-store.js";
import { memory, scopeA } from "../../testing/rows.js";
import type { StrategyPorts } from "../strategy.js";
import { nearestMemories } from "./memory-vectors.js";

// Few words and short texts: the hashing embedder then gives many exactly equal cosines.
const WORDS = "beagle garden pottery marathon bristol nurse".split(" ");
const embedder = new HashEmbedder(64);

/** The ports a strategy gets, with or without the retriever's nearest search. */
function ports(store: SqliteStore, retriever: InProcessRetriever, withIndex: boolean): StrategyPorts {
  const plain = {
    specificationVersion: "v1" as const,
    searchMemories: retriever.searchMemories.bind(retriever),
    searchTurns: retriever.searchTurns.bind(retriever),
  };
  return {
    scope: scopeA,
    store,
    caches: new EngineCaches(store),
    embedder,
    retriever: withIndex ? retriever : plain,
    cognition: undefined as never,
  };
}

const view = (lists: { memory: Memory; score: number }[][]) =>
  lists.map((l) => l.map((x) => `${x.memory.id} ${x.score.toFixed(12)}`));

describe("nearestMemories", () => {
  for (const seed of [1, 2, 3])
    it(`answers from the index what ranking every listed memory answers (seed ${seed})`, async () => {
      const random = seededRandom(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
      const text = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS)).join(" ");
      const store = new SqliteStore(":memory:");
      const retriever = new InProcessRetriever(store, embedder);
      try {
        for (let round = 0; round < 6; round++) {
          const fresh = Array.from({ length: 30 }, (_, i) =>
            memory(scopeA, text(), {
              about: pick(["sam", "kim"]),
              strategy: pick(["carecall", "theanine"]),
              // Equal times too, so that equal scores fall back to recorded time and id.
              observedAt: new Date(Date.UTC(2024, 2, 1 + Math.floor(random() * 5))).toISOString(),
              recordedAt: `2024-04-0${1 + (i % 3)}T00:00:00.000Z`,
            }),
          );
          const vectors = await embedder.embed(fresh.map((m) => m.text));
          // A few memories arrive without a vector (written under another embedder, say).
          await store.write(scopeA, {
            memories: fresh,
            embeddings: fresh.flatMap((m, i) =>
              random() < 0.1
                ? []
                : [
                    {
                      ownerKind: "memory" as const,
                      ownerId: m.id,
                      model: embedder.name,
                      vector: vectors[i]!,
                    },
                  ],
            ),
          });
          const active = await store.listMemories(scopeA);
          const [old, by] = [pick(active), pick(active)];
          if (old.id !== by.id)
            await store.write(scopeA, {
              supersede: [
                {
                  oldId: old.id,
                  byId: by.id,
                  at: "2024-03-09T00:00:00.000Z",
                  reason: "REPLACE",
                },
              ],
            });
          const asked = await embedder.embed([text(), text(), text()]);
          for (const filter of [
            { strategy: "carecall", about: "sam" },
            { strategy: "theanine", status: "any" },
            {},
          ] as MemoryFilter[])
            for (const k of [1, 3, 5, 40]) {
              const fromIndex = await nearestMemories(ports(store, retriever, true), asked, k, filter, 0.1);
              const listed = await nearestMemories(ports(store, retriever, false), asked, k, filter, 0.1);
              assert.deepEqual(
                view(fromIndex.lists),
                view(listed.lists),
                `round ${round}, k ${k}, ${JSON.stringify(filter)}`,
              );
              assert.equal(fromIndex.among, listed.among);
            }
        }
      } finally {
        await store.close();
      }
    });

  it("finds nothing in an empty scope, and for k 0", async () => {
    const store = new SqliteStore(":memory:");
    const retriever = new InProcessRetriever(store, embedder);
    const [v] = await embedder.embed(["beagle"]);
    assert.deepEqual(await retriever.nearestMemories(scopeA, [v!], 5), { lists: [[]], among: 0 });
    await store.write(scopeA, { memories: [memory(scopeA, "beagle")] });
    assert.deepEqual(await retriever.nearestMemories(scopeA, [v!], 0), { lists: [[]], among: 1 });
    await store.close();
  });
});
