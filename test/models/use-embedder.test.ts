import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cosine } from "../../src/core/vector.js";
import { UniversalSentenceEncoder } from "../../src/models/use-embedder.js";

describe("bundled sentence encoder (offline)", () => {
  it("gives 512-d unit vectors that place paraphrases closer than unrelated text", async () => {
    const e = new UniversalSentenceEncoder({ workers: 1 });
    const [a, b, c, empty] = await e.embed([
      "Sam adopted a beagle puppy.",
      "Sam got a new dog, a young beagle.",
      "The stock market fell on Tuesday.",
      "",
    ]);
    assert.equal(a!.length, 512);
    assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-4);
    assert.ok(cosine(a!, b!) > cosine(a!, c!) + 0.2);
    assert.equal(empty!.length, 512, "empty text still gets a vector");
    assert.deepEqual(await e.embed([]), []);
  });

  it("embeds the same in worker threads as in-process, and closes its workers", async () => {
    const texts = Array.from(
      { length: 20 },
      (_, i) => `Sentence ${i} about gardening, pottery and long walks.`,
    );
    const inProcess = await new UniversalSentenceEncoder({ workers: 1 }).embed(texts);
    const pooled = new UniversalSentenceEncoder({ workers: 2, batchSize: 4 });
    const viaWorkers = await pooled.embed(texts);
    assert.equal(viaWorkers.length, texts.length);
    for (let i = 0; i < texts.length; i++)
      assert.ok(cosine(inProcess[i]!, viaWorkers[i]!) > 0.9999, `text ${i} kept its place`);
    await pooled.close();
  });
});
