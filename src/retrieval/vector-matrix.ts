/**
 * Unit vectors held in one contiguous Float32Array, row by row, searched by one pass of dot
 * products: the exact nearest-neighbour scan behind dense recall. A row without a vector stays
 * all zeros (similarity 0).
 */
import type { Scored } from "./fusion.js";
import { TopK } from "./top-k.js";

export class VectorMatrix {
  private readonly data: Float32Array;

  constructor(
    readonly rows: number,
    readonly dims: number,
  ) {
    this.data = new Float32Array(rows * dims);
  }

  set(row: number, vector: Float32Array): void {
    this.data.set(vector.subarray(0, this.dims), row * this.dims);
  }

  /** Similarity of one row to the query. */
  similarity(row: number, query: Float32Array): number {
    const off = row * this.dims;
    let s = 0;
    for (let i = 0; i < this.dims; i++) s += this.data[off + i]! * query[i]!;
    return s;
  }

  /** The `k` rows most similar to `query` (admitted rows only, when a mask is given), best first. */
  nearest(query: Float32Array, k: number, admitted?: Uint8Array): Scored[] {
    const d = this.dims;
    const m = this.data;
    if (k <= 0) return [];
    const top = new TopK(k);
    for (let doc = 0; doc < this.rows; doc++) {
      if (admitted && !admitted[doc]) continue;
      // Four lanes: the dot product is the hot loop of every recall.
      const off = doc * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < d; i += 4) {
        s0 += m[off + i]! * query[i]!;
        s1 += m[off + i + 1]! * query[i + 1]!;
        s2 += m[off + i + 2]! * query[i + 2]!;
        s3 += m[off + i + 3]! * query[i + 3]!;
      }
      for (; i < d; i++) s0 += m[off + i]! * query[i]!;
      const s = s0 + s1 + s2 + s3;
      if (s > top.floor) top.push(doc, s);
    }
    return top.sorted();
  }
}
