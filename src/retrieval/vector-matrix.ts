/**
 * Unit vectors held in one contiguous block of float32s, row by row, searched by one pass of dot
 * products: the exact nearest-neighbour scan behind dense recall. A row without a vector stays
 * all zeros (similarity 0). The scan runs in WebAssembly SIMD (simd-scan.ts) where available,
 * else in plain JavaScript; both give the same scores up to float rounding.
 */
import type { Scored } from "./fusion.js";
import { createSimdScan } from "./simd-scan.js";
import { TopK } from "./top-k.js";

export class VectorMatrix {
  /** Floats per stored row: `dims` rounded up to a multiple of four (the SIMD lane count). */
  private readonly stride: number;
  private data!: Float32Array;
  private query!: Float32Array;
  private scores!: Float32Array;
  private scan: ((mat: number, q: number, rows: number, dims: number, out: number) => void) | null = null;
  private capacity = 0;
  private count: number;

  /**
   * `rows` rows of zeros, room for more reserved as rows are appended (capacity doubles, so an
   * append costs O(1) on average). `simd: false` forces the JavaScript scan (for tests and comparisons).
   */
  constructor(
    rows: number,
    readonly dims: number,
    private readonly options: { simd?: boolean } = {},
  ) {
    this.stride = Math.ceil(dims / 4) * 4;
    this.count = rows;
    this.allocate(rows);
  }

  /** Rows held (searched by `nearest`). */
  get rows(): number {
    return this.count;
  }

  /** Bytes this matrix holds (for the index budget). */
  get bytes(): number {
    return this.data.buffer.byteLength;
  }

  private allocate(capacity: number): void {
    const old = this.capacity ? this.data : null;
    const floats = capacity * this.stride + this.stride + capacity;
    const simd = this.options.simd === false ? null : createSimdScan(floats);
    this.scan = simd?.scan ?? null;
    const buffer = simd?.buffer ?? new ArrayBuffer(floats * 4);
    this.data = new Float32Array(buffer, 0, capacity * this.stride);
    this.query = new Float32Array(buffer, this.data.byteLength, this.stride);
    this.scores = new Float32Array(buffer, this.data.byteLength + this.query.byteLength, capacity);
    if (old) this.data.set(old.subarray(0, this.count * this.stride));
    this.capacity = capacity;
  }

  /** Makes room for `rows` rows in all, so appending that many allocates nothing. */
  reserve(rows: number): void {
    if (rows > this.capacity) this.allocate(rows);
  }

  /** Adds a row (zeros when no vector is given); returns its number. */
  append(vector?: Float32Array): number {
    if (this.count === this.capacity) this.allocate(Math.max(16, this.capacity * 2));
    const row = this.count++;
    if (vector) this.set(row, vector);
    return row;
  }

  set(row: number, vector: Float32Array): void {
    this.data.set(vector.subarray(0, this.dims), row * this.stride);
  }

  /** Makes a row all zeros again (its vector was deleted). */
  clear(row: number): void {
    this.data.fill(0, row * this.stride, (row + 1) * this.stride);
  }

  /** Similarity of one row to the query. */
  similarity(row: number, query: Float32Array): number {
    const off = row * this.stride;
    let s = 0;
    for (let i = 0; i < this.dims; i++) s += this.data[off + i]! * query[i]!;
    return s;
  }

  /** The `k` rows most similar to `query` (admitted rows only, when a mask is given), best first. */
  nearest(query: Float32Array, k: number, admitted?: Uint8Array): Scored[] {
    if (k <= 0 || this.count === 0) return [];
    this.query.fill(0);
    this.query.set(query.subarray(0, this.dims));
    const scores = this.scores;
    if (this.scan)
      this.scan(
        0,
        this.data.byteLength,
        this.count,
        this.stride,
        this.data.byteLength + this.query.byteLength,
      );
    else this.scanInJs();
    const top = new TopK(k);
    for (let doc = 0; doc < this.count; doc++) {
      if (admitted && !admitted[doc]) continue;
      const s = scores[doc]!;
      if (s > top.floor) top.push(doc, s);
    }
    return top.sorted();
  }

  private scanInJs(): void {
    const d = this.stride;
    const m = this.data;
    const q = this.query;
    for (let doc = 0; doc < this.count; doc++) {
      // Four lanes, as the SIMD scan does.
      const off = doc * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < d; i += 4) {
        s0 += m[off + i]! * q[i]!;
        s1 += m[off + i + 1]! * q[i + 1]!;
        s2 += m[off + i + 2]! * q[i + 2]!;
        s3 += m[off + i + 3]! * q[i + 3]!;
      }
      this.scores[doc] = s0 + s1 + s2 + s3;
    }
  }
}
