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
      // Over two blocks (BLOCK_ROWS), each large enough for the WebAssembly scan.
      const rows = Array.from({ length: 20_000 }, () =>
        normalize(Float32Array.from({ length: dims }, () => random() - 0.5)),
      );
      // Half set in place, half appended: both ways of filling give the same matrix.
      const matrix = new VectorMatrix(rows.length / 2, dims, { simd });
      for (const [i, v] of rows.entries()) i < rows.length / 2 ? matrix.set(i, v) : matrix.append(v);
      assert.equal(matrix.rows, rows.length);
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
      assert.ok(Math.abs(matrix.similarity(19_999, query) - dot(query, rows[19_999]!)) < 1e-5);
      matrix.clear(19_999);
      assert.equal(matrix.similarity(19_999, query), 0);
    });
});
