import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Embedder } from "../models/embedder.js";
import { HashEmbedder } from "../models/hash-embedder.js";
import { SqliteStore } from "../store/sqlite/sqlite-store.js";
import { scopeA, scopeB, session, turn } from "../testing/rows.js";
import { FUSION_WEIGHTS } from "./fusion.js";
import { turnVectors } from "./turn-embedding-text.js";
import { TurnIndex } from "./turn-search.js";

/** Counts how many texts it was asked to embed. */
class CountingEmbedder implements Embedder {
  readonly specificationVersion = "v1" as const;
  private readonly inner = new HashEmbedder(128);
  readonly name = this.inner.name;
  readonly dimensions = this.inner.dimensions;
  texts = 0;
  async embed(texts: string[]) {
    this.texts += texts.length;
    return this.inner.embed(texts);
  }
}

async function storeWithTwoSessions() {
  const store = new SqliteStore(":memory:");
  const may = "2023-05-08T10:00:00.000Z";
  const july = "2023-07-20T10:00:00.000Z";
  await store.write(scopeA, {
    sessions: [session(scopeA, "s1", may), session(scopeA, "s2", july)],
    turns: [
      turn(scopeA, "s1", 0, "sam", "We went hiking in the hills.", may),
      turn(scopeA, "s1", 1, "ava", "Sounds lovely, what did you see?", may),
      turn(scopeA, "s1", 2, "sam", "A family of deer by the lake.", may),
      turn(scopeA, "s2", 0, "sam", "We went hiking again, up the coast.", july),
      turn(scopeA, "s2", 1, "ava", "How was the weather?", july),
      turn(scopeA, "s2", 2, "kim", "Kim here: I baked bread all weekend.", july),
    ],
  });
  return store;
}

describe("turn search", () => {
  it("ranks the turn that says a thing above the turn that asks about it", async () => {
    const store = new SqliteStore(":memory:");
    const at = "2023-05-08T10:00:00.000Z";
    await store.write(scopeA, {
      sessions: [session(scopeA, "s1", at)],
      turns: [
        turn(scopeA, "s1", 0, "sam", "Did you adopt the beagle puppy", at),
        turn(scopeA, "s1", 1, "sam", "Did you adopt the beagle puppy?", at),
      ],
    });
    const index = await TurnIndex.build(store, scopeA, new HashEmbedder(128));
    const hits = await index.search("adopt beagle puppy", { k: 2 });
    assert.deepEqual(
      hits.map((h) => h.id),
      ["s1:1", "s1:2"],
    );
    assert.equal(hits[1]!.explanation.question, -0.3);
    const plain = await index.search("adopt beagle puppy", {
      k: 2,
      weights: { ...FUSION_WEIGHTS, question: 0, length: 0 },
    });
    assert.equal(plain[0]!.score, plain[1]!.score, "the same words otherwise score the same");
    await store.close();
  });

  it("embeds missing turn vectors for the index only: a read never writes", async () => {
    const store = await storeWithTwoSessions();
    const embedder = new CountingEmbedder();
    const version = await store.changeVersion(scopeA);
    await TurnIndex.build(store, scopeA, embedder);
    assert.equal(embedder.texts, 6);
    assert.equal(await store.changeVersion(scopeA), version, "nothing was written");
    assert.equal((await store.stats(scopeA)).embeddings, 0);
    // Filling the store is reindex's job; then a build reads the stored vectors.
    const { fresh } = await turnVectors(store, scopeA, embedder, await store.listTurns(scopeA));
    await store.write(scopeA, { embeddings: fresh });
    await TurnIndex.build(store, scopeA, embedder);
    assert.equal(embedder.texts, 12, "the build after reindexing embeds nothing");
    await store.close();
  });

  it("favours turns said at the asked time and explains every signal", async () => {
    const store = await storeWithTwoSessions();
    const index = await TurnIndex.build(store, scopeA, new HashEmbedder(128));
    const [inMay] = await index.search("Where did Sam go hiking in May 2023?", { k: 1 });
    assert.equal(inMay!.id, "s1:1");
    assert.ok(inMay!.explanation.time! > 0, "the time signal is in the explanation");
    assert.ok("dense" in inMay!.explanation && "bm25" in inMay!.explanation);
    const [inJuly] = await index.search("Where did Sam go hiking in July 2023?", { k: 1 });
    assert.equal(inJuly!.id, "s2:1");
    await store.close();
  });

  it("lifts the answer next to a matching question and the speaker the question names", async () => {
    const store = await storeWithTwoSessions();
    const index = await TurnIndex.build(store, scopeA, new HashEmbedder(128));
    const hits = await index.search("what did you see?", { k: 6 });
    const answer = hits.find((h) => h.id === "s1:3")!;
    assert.ok(answer.explanation.neighbour! > 0);
    const [kim] = await index.search("What did Kim do all weekend?", { k: 1 });
    assert.equal(kim!.about, "kim");
    assert.ok(kim!.explanation.subject! > 0);
    await store.close();
  });

  it("does no neighbour work when the neighbour weight is 0", async () => {
    const store = new SqliteStore(":memory:");
    const at = "2023-05-08T10:00:00.000Z";
    await store.write(scopeA, {
      sessions: [session(scopeA, "s1", at)],
      turns: [
        turn(scopeA, "s1", 0, "sam", "A family of deer by the lake.", at),
        turn(scopeA, "s1", 1, "kim", "Right, lovely.", at),
        turn(scopeA, "s1", 2, "sam", "We went hiking in the hills.", at),
        turn(scopeA, "s1", 3, "sam", "I baked bread all weekend.", at),
        turn(scopeA, "s1", 4, "sam", "The lake was windy.", at),
      ],
    });
    const embedder = new HashEmbedder(128);
    const index = await TurnIndex.build(store, scopeA, embedder);
    // Kim's reply shares no word with the question's vector (asked without the name) nor with its
    // lexical query (names leave it), so neither ranker finds it among its two (the deer and the
    // windy lake): only the neighbour signal scores it, and then the subject signal lifts it.
    const [vector] = await embedder.embed(["family of deer by the lake"]);
    const asked = { k: 2, depth: 2, vector: vector! };
    const query = "What did Kim say about the family of deer by the lake?";
    const withIt = await index.search(query, asked);
    assert.deepEqual(
      withIt.map((h) => h.id),
      ["s1:1", "s1:2"],
    );
    assert.ok(withIt[1]!.explanation.neighbour! > 0 && withIt[1]!.explanation.subject! > 0);
    const withoutIt = await index.search(query, { ...asked, weights: { ...FUSION_WEIGHTS, neighbour: 0 } });
    // Scored anyway, the reply would still come second on the subject alone (0.84 against 0.67).
    assert.deepEqual(
      withoutIt.map((h) => h.id),
      ["s1:1", "s1:5"],
      "no neighbour is scored, so none comes in",
    );
    await store.close();
  });

  it("answers bad input with an empty result, never a crash", async () => {
    const store = await storeWithTwoSessions();
    const index = await TurnIndex.build(store, scopeA, new HashEmbedder(128));
    assert.deepEqual(await index.search("", { k: 5 }), []);
    assert.deepEqual(await index.search("   \n", { k: 5 }), []);
    assert.deepEqual(await index.search("hiking", { k: 0 }), []);
    const long = await index.search("hiking ".repeat(20_000), { k: 3 });
    assert.equal(long.length, 3);
    const foreign = await index.search("¿Dónde fue Sam de excursión? 山で何を見ましたか", { k: 3 });
    assert.ok(Array.isArray(foreign) && foreign.length <= 3);
    const empty = await TurnIndex.build(store, scopeB, new HashEmbedder(128));
    assert.deepEqual(await empty.search("hiking", { k: 5 }), []);
    await store.close();
  });

  it("ranks by each baseline alone", async () => {
    const store = await storeWithTwoSessions();
    const index = await TurnIndex.build(store, scopeA, new HashEmbedder(128));
    for (const ranker of ["bm25", "dense", "rrf"] as const) {
      const [top] = await index.search("bread all weekend", { k: 1, ranker });
      assert.equal(top!.id, "s2:3", ranker);
      assert.equal(top!.explanation.time, undefined, "baselines use no time signal");
    }
    await store.close();
  });
});
