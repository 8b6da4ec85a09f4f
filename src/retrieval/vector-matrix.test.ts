import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { seededRandom } from "../core/memory-graph.js";
import { dot, normalize } from "../core/vector.js";
import { SIMD_SCAN_BYTES } from "./simd-scan.js";
import { BLOCK_ROWS, VectorMatrix } from "./vector-matrix.js";

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
      // 5000: a deep search, which scans the floats (with SIMD) instead of the codes.
      for (const k of [1, 10, 400, 1000, 5000]) {
        const expected = rows
          .map((v, doc) => ({ doc, score: dot(query, v) }))
          .filter((r) => mask[r.doc])
          .sort((a, b) => b.score - a.score)
          .slice(0, k);
        const got = matrix.nearest(query, k, mask);
        // The float scans sum in float32: two rows closer than that may trade places (k = 5000
        // has such a pair), nothing else.
        const exact = new Map(rows.map((v, doc) => [doc, dot(query, v)]));
        assert.equal(got.length, expected.length, `k = ${k}`);
        for (const [i, g] of got.entries()) {
          if (g.doc !== expected[i]!.doc)
            assert.ok(Math.abs(exact.get(g.doc)! - expected[i]!.score) < 1e-6, `k = ${k}, rank ${i}`);
          assert.ok(Math.abs(g.score - expected[i]!.score) < 1e-5);
        }
      }
      assert.deepEqual(matrix.nearest(query, 0), []);
      assert.ok(Math.abs(matrix.similarity(42, query) - dot(query, rows[42]!)) < 1e-5);
      assert.ok(Math.abs(matrix.similarity(19_999, query) - dot(query, rows[19_999]!)) < 1e-5);
      matrix.clear(19_999);
      assert.equal(matrix.similarity(19_999, query), 0);
    });
});

describe("vector matrix, coded scan", () => {
  for (const simd of [true, false])
    it(`scores listed rows as the scan does, in full and growing blocks (${simd ? "SIMD" : "JavaScript"})`, () => {
      const random = seededRandom(11);
      const dims = 19;
      // One full block (the SIMD kernel's) and a growing one after it.
      const rows = Array.from({ length: BLOCK_ROWS + 500 }, () =>
        normalize(Float32Array.from({ length: dims }, () => random() - 0.5)),
      );
      const matrix = new VectorMatrix(0, dims, { simd });
      for (const v of rows) matrix.append(v);
      matrix.clear(3);
      const query = normalize(Float32Array.from({ length: dims }, () => random() - 0.5));
      const listed = [BLOCK_ROWS + 499, 0, 3, BLOCK_ROWS, 17, 17, BLOCK_ROWS - 1];
      const got = matrix.similarities(listed, query);
      assert.equal(got.length, listed.length);
      for (const [j, row] of listed.entries()) {
        const expected = row === 3 ? 0 : dot(query, rows[row]!);
        assert.ok(Math.abs(got[j]! - expected) < 1e-6, `row ${row}: ${got[j]} against ${expected}`);
        // The same sum as a scan that returns the row (float32 lanes either way).
        if (row !== 3) assert.ok(Math.abs(got[j]! - matrix.similarity(row, query)) < 1e-6);
      }
      const [best] = matrix.nearest(query, 1);
      assert.equal(matrix.similarities([best!.doc], query)[0], best!.score, "bit for bit the scan's score");
      assert.deepEqual([...matrix.similarities([], query)], []);
    });

  it("gives the exact k best among many equal scores (sparse rows, as the hashing embedder makes)", () => {
    const random = seededRandom(11);
    const dims = 64;
    // A few nonzero buckets of ±1, normalised: many rows share a score with the query exactly.
    const sparse = () => {
      const v = new Float32Array(dims);
      const n = 1 + Math.floor(random() * 4);
      for (let i = 0; i < n; i++) v[Math.floor(random() * dims)] = random() < 0.5 ? -1 : 1;
      return normalize(v);
    };
    const rows = Array.from({ length: 3 * BLOCK_ROWS }, () => sparse());
    const matrix = new VectorMatrix(0, dims);
    for (const v of rows) matrix.append(v);
    // Rows rewritten and cleared after their block was coded.
    for (let i = 0; i < 500; i++) {
      const doc = Math.floor(random() * rows.length);
      if (i % 2) {
        rows[doc] = sparse();
        matrix.set(doc, rows[doc]!);
      } else {
        rows[doc] = new Float32Array(dims);
        matrix.clear(doc);
      }
    }
    const mask = Uint8Array.from(rows, (_, i) => (i % 5 ? 1 : 0));
    for (let q = 0; q < 20; q++) {
      const query = q === 0 ? new Float32Array(dims) : sparse();
      for (const k of [1, 7, 100, 1000]) {
        const expected = rows
          .map((_, doc) => ({ doc, score: Math.fround(matrix.similarity(doc, query)) }))
          .filter((r) => mask[r.doc])
          .sort((a, b) => b.score - a.score || a.doc - b.doc)
          .slice(0, k);
        assert.deepEqual(matrix.nearest(query, k, mask), expected, `query ${q}, k = ${k}`);
      }
    }
  });

  it("agrees with the float scan on dense rows, whatever their spread", () => {
    const random = seededRandom(5);
    const dims = 300;
    // Rows with one large component: the code's unit is coarse for the rest of the row.
    const rows = Array.from({ length: 2 * BLOCK_ROWS + 77 }, (_, i) => {
      const v = Float32Array.from({ length: dims }, () => random() - 0.5);
      if (i % 7 === 0) v[i % dims] = 40;
      return normalize(v);
    });
    const coded = new VectorMatrix(0, dims);
    const plain = new VectorMatrix(0, dims, { simd: false });
    for (const v of rows) {
      coded.append(v);
      plain.append(v);
    }
    for (let q = 0; q < 10; q++) {
      const query = normalize(Float32Array.from({ length: dims }, () => random() - 0.5));
      const a = coded.nearest(query, 50);
      const b = plain.nearest(query, 50);
      assert.deepEqual(
        a.map((x) => x.doc),
        b.map((x) => x.doc),
      );
      for (const [i, x] of a.entries()) assert.ok(Math.abs(x.score - b[i]!.score) < 1e-5);
    }
  });

  it("runs the kernel assembled from its text form", async () => {
    const wabt = await (await import("wabt")).default();
    const text = readFileSync(new URL("./simd-scan.wat", import.meta.url), "utf8");
    const module = wabt.parseWat("simd-scan.wat", text, { simd: true });
    assert.deepEqual(new Uint8Array(module.toBinary({}).buffer), SIMD_SCAN_BYTES);
  });
});
