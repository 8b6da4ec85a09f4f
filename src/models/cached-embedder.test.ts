import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CachedEmbedder } from "./cached-embedder.js";
import { HashEmbedder } from "./hash-embedder.js";

describe("CachedEmbedder", () => {
  it("answers every text of a call holding more texts than the cache keeps", async () => {
    const inner = new HashEmbedder(16);
    const cached = new CachedEmbedder(inner, 2);
    const texts = ["one", "two", "three", "four", "two"];
    const vectors = await cached.embed(texts);
    assert.equal(vectors.length, texts.length);
    assert.deepEqual(vectors, await inner.embed(texts));
  });
});
