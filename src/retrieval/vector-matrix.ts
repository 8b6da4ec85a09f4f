/**
 * Unit vectors held row by row in blocks of contiguous float32s, searched by one pass of dot
 * products per block: the exact nearest-neighbour scan behind dense recall. A row without a
 * vector stays all zeros (similarity 0). The scan runs in WebAssembly SIMD (simd-scan.ts) where
 * available (full blocks), else in plain JavaScript; both give the same scores up to float
 * rounding. Rows are appended as a scope grows: a block doubles its room up to BLOCK_ROWS rows,
 * then a new block starts, so growing never copies more than one block (one big copy would stall
 * every caller).
 */
import type { Scored } from "./fusion.js";
import { createSimdScan } from "./simd-scan.js";
import { TopK } from "./top-k.js";

/** Most rows in one block. */
export const BLOCK_ROWS = 8192;

export class VectorMatrix {
  private readonly blocks: Block[] = [];
  private count = 0;

  /** `rows` rows of zeros. `simd: false` forces the JavaScript scan (for tests and comparisons). */
  constructor(
    rows: number,
    readonly dims: number,
    private readonly options: { simd?: boolean } = {},
  ) {
    this.reserve(rows);
    for (let i = 0; i < rows; i++) this.append();
  }

  /** Rows held (searched by `nearest`). */
  get rows(): number {
    return this.count;
  }

  /** Bytes this matrix holds (for the index budget). */
  get bytes(): number {
    let n = 0;
    for (const b of this.blocks) n += b.bytes;
    return n;
  }

  /** Makes room for `rows` rows in all, so appending that many allocates nothing more. */
  reserve(rows: number): void {
    for (let b = 0; b * BLOCK_ROWS < rows; b++) {
      const need = b === 0 ? Math.min(BLOCK_ROWS, rows) : BLOCK_ROWS;
      const block = this.blocks[b];
      if (block) block.reserve(need);
      else this.blocks.push(new Block(need, this.dims, this.options));
    }
  }

  /** Adds a row (zeros when no vector is given); returns its number. */
  append(vector?: Float32Array): number {
    const row = this.count;
    const at = Math.floor(row / BLOCK_ROWS);
    // The first block grows from a few rows (most scopes are small); a later one starts full
    // size, so that a large scope's newest rows are scanned in SIMD too (a growing tail scanned
    // in JavaScript cost a 10K-turn scope more than its full block did).
    if (!this.blocks[at]) this.blocks[at] = new Block(at === 0 ? 16 : BLOCK_ROWS, this.dims, this.options);
    this.blocks[at]!.append(vector);
    this.count++;
    return row;
  }

  set(row: number, vector: Float32Array): void {
    this.blocks[Math.floor(row / BLOCK_ROWS)]!.set(row % BLOCK_ROWS, vector);
  }

  /** Makes a row all zeros again (its vector was deleted). */
  clear(row: number): void {
    this.blocks[Math.floor(row / BLOCK_ROWS)]!.clear(row % BLOCK_ROWS);
  }

  /** Similarity of one row to the query. */
  similarity(row: number, query: Float32Array): number {
    return this.blocks[Math.floor(row / BLOCK_ROWS)]!.similarity(row % BLOCK_ROWS, query);
  }

  /** The `k` rows most similar to `query` (admitted rows only, when a mask is given), best first. */
  nearest(query: Float32Array, k: number, admitted?: Uint8Array): Scored[] {
    if (k <= 0 || this.count === 0) return [];
    const top = new TopK(k);
    for (const [i, block] of this.blocks.entries()) {
      if (block.rows === 0) continue;
      const scores = block.score(query);
      const base = i * BLOCK_ROWS;
      for (let r = 0; r < block.rows; r++) {
        const doc = base + r;
        if (admitted && !admitted[doc]) continue;
        const s = scores[r]!;
        if (s > top.floor) top.push(doc, s);
      }
    }
    return top.sorted();
  }
}

/** One block of rows in one allocation (WebAssembly memory for the SIMD scan). */
class Block {
  /** Floats per stored row: `dims` rounded up to a multiple of four (the SIMD lane count). */
  private readonly stride: number;
  private data!: Float32Array;
  private query!: Float32Array;
  private scores!: Float32Array;
  private scan: ((mat: number, q: number, rows: number, dims: number, out: number) => void) | null = null;
  capacity = 0;
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
    this.count = 0;
    this.allocate(Math.max(1, rows));
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
    // Only a full block gets WebAssembly memory, once: creating one is costly (each reserves a
    // large address range, and freeing them drove garbage collection to 1.8 s in an ingest that
    // grew blocks step by step), and small ones would hold a 64 KiB page each. A block still
    // growing scans in JavaScript; it holds fewer than BLOCK_ROWS rows.
    const simd = this.options.simd === false || capacity < BLOCK_ROWS ? null : createSimdScan(floats);
    this.scan = simd?.scan ?? null;
    const buffer = simd?.buffer ?? new ArrayBuffer(floats * 4);
    this.data = new Float32Array(buffer, 0, capacity * this.stride);
    this.query = new Float32Array(buffer, this.data.byteLength, this.stride);
    this.scores = new Float32Array(buffer, this.data.byteLength + this.query.byteLength, capacity);
    if (old) this.data.set(old.subarray(0, this.count * this.stride));
    this.capacity = capacity;
  }

  /** Makes room for `rows` rows in all. */
  reserve(rows: number): void {
    if (rows > this.capacity) this.allocate(rows);
  }

  /** Adds a row (zeros when no vector is given); returns its number. */
  append(vector?: Float32Array): number {
    if (this.count === this.capacity) this.allocate(Math.min(BLOCK_ROWS, Math.max(16, this.capacity * 2)));
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

  /** Every row's similarity to `query`, by row (valid until the next call). */
  score(query: Float32Array): Float32Array {
    this.query.fill(0);
    this.query.set(query.subarray(0, this.dims));
    if (this.scan)
      this.scan(
        0,
        this.data.byteLength,
        this.count,
        this.stride,
        this.data.byteLength + this.query.byteLength,
      );
    else this.scanInJs();
    return this.scores;
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
