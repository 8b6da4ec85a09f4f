import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../src/core/memory-graph.js";
import { dot, normalize } from "../../src/core/vector.js";
import { VectorMatrix } from "../../src/retrieval/vector-matrix.js";

describe("vector matrix", () => {
  for (const simd of [true, false])
    it(`finds exactly the k nearest rows, best first, within the mask (${simd ? "SIMD" : "JavaScript"} scan)`, () => {
      const random = seededRandom(7);
      const dims = 19; // not a multiple of four: the tail of the dot product counts too
      const rows = Array.from({ length: 500 }, () =>
        normalize(Float32Array.from({ length: dims }, () => random() - 0.5)),
      );
      const matrix = new VectorMatrix(rows.length, dims, { simd });
      for (const [i, v] of rows.entries()) matrix.set(i, v);
      const query = normalize(Float32Array.from({ length: dims }, () => random() - 0.5));
      const mask = Uint8Array.from(rows, (_, i) => (i % 3 ? 1 : 0));
      for (const k of [1, 10, 400, 1000]) {
        const expected = rows
          .map((v, doc) => ({ doc, score: dot(query, v) }))
          .filter((r) => mask[r.doc])
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
        const got = matrix.nearest(query, k, mask);
        assert.deepEqual(
          got.map((g) => g.doc),
          expected.map((e) => e.doc),
          `k = ${k}`,
        );
        for (const [i, g] of got.entries()) assert.ok(Math.abs(g.score - expected[i]!.score) < 1e-5);
      }
      assert.deepEqual(matrix.nearest(query, 0), []);
      assert.ok(Math.abs(matrix.similarity(42, query) - dot(query, rows[42]!)) < 1e-5);
    });
});
