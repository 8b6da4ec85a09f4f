/**
 * Unit vectors held row by row in blocks of contiguous float32s, searched exactly: the nearest-
 * neighbour scan behind dense recall. A row without a vector stays all zeros (similarity 0).
 *
 * A full block lives in WebAssembly memory and also keeps each row as 8-bit codes (one unit per
 * row). A search scans the codes in SIMD (simd-scan.ts): a quarter of the bytes to read. Each
 * coded score comes with a bound on its error, from the row's and the query's rounding and the
 * float kernel's sums, so the scan knows which rows could still be among the k best; only those
 * are scored again from their floats, by the float kernel. The answer is the exact one (tests
 * check it against a plain scan), at the cost of a byte per dimension more. A deep search (k a
 * sixteenth of the rows or more) scans the floats in SIMD instead. A block still growing, or a
 * process without WebAssembly SIMD, scans its floats in JavaScript.
 *
 * Rows are appended as a scope grows: a block doubles its room up to BLOCK_ROWS rows, then a new
 * block starts, so growing never copies more than one block (one big copy would stall every caller).
 */
import type { Scored } from "./fusion.js";
import { createSimdScan, type SimdScan } from "./simd-scan.js";
import { TopK } from "./top-k.js";

/** Most rows in one block. */
export const BLOCK_ROWS = 8192;

/** Largest query code. Row codes reach 127, so a row's sum stays inside 32 bits up to MAX_CODED_DIMS. */
const QUERY_LEVELS = 2047;
const MAX_CODED_DIMS = 8192;

/** A query as the coded scan reads it: 16-bit codes, their scale, and the rounding's size. */
interface CodedQuery {
  codes: Int16Array;
  scale: number;
  /** ‖query − scale·codes‖: how far the codes are from the query. */
  error: number;
  /** ‖query‖. */
  norm: number;
}

/** The rows that might be among the k best, each with an upper bound on its score. */
class Candidates {
  readonly docs: number[] = [];
  readonly upper: number[] = [];
  /** The k best lower bounds seen: the k-th is a floor under the k-th best exact score. */
  readonly lower: TopK;

  constructor(k: number) {
    this.lower = new TopK(k);
  }
}

/** Added to every error bound: room for the float rounding of the bounds' own arithmetic. */
const SLACK = 1e-6;

export class VectorMatrix {
  private readonly blocks: Block[] = [];
  private count = 0;

  /**
   * `rows` rows of zeros. `simd: false` forces the float scan in JavaScript (for tests and
   * comparisons).
   */
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

  /**
   * Each listed row's similarity to the query, summed as the scan sums (four float32 lanes, in
   * WebAssembly SIMD where the block has it): for the rows a search scores besides the scan's own
   * (the turn search scores every candidate's neighbours, thousands per question at 100K turns).
   * Several times faster than `similarity` row by row (`npm run bench -- recall --signals`).
   */
  similarities(rows: readonly number[], query: Float32Array): Float64Array {
    const out = new Float64Array(rows.length);
    const loaded = new Set<Block>();
    for (let j = 0; j < rows.length; j++) {
      const block = this.blocks[Math.floor(rows[j]! / BLOCK_ROWS)]!;
      if (!loaded.has(block)) {
        block.load(query);
        loaded.add(block);
      }
      out[j] = block.loadedScore(rows[j]! % BLOCK_ROWS);
    }
    return out;
  }

  /** A row's floats, as a view: read it at once (a block's memory may move when another grows). */
  vector(row: number): Float32Array {
    return this.blocks[Math.floor(row / BLOCK_ROWS)]!.vector(row % BLOCK_ROWS);
  }

  /** The `k` rows most similar to `query` (admitted rows only, when a mask is given), best first. */
  nearest(query: Float32Array, k: number, admitted?: Uint8Array): Scored[] {
    if (k <= 0 || this.count === 0) return [];
    // A deep search scores too many rows again to gain: with k a sixteenth of the rows or more
    // (1,000 of 10K), the float scan is faster (`npm run bench -- recall`, 256 and 512 dimensions).
    // Codes only when every block has them (a block still growing has none; such a matrix is small).
    const coded =
      16 * k < this.count && this.blocks.every((b) => b.rows === 0 || b.coded)
        ? codeQuery(query, this.dims)
        : null;
    if (!coded) return this.scanned(query, k, admitted);
    const found = new Candidates(k);
    for (const [i, block] of this.blocks.entries())
      if (block.rows > 0) block.collect(query, coded, i * BLOCK_ROWS, admitted, found);
    // Every row of the k best has an upper bound at or above the k-th best lower bound.
    const floor = found.lower.floor;
    const top = new TopK(k);
    for (let j = 0; j < found.docs.length; j++) {
      if (found.upper[j]! < floor) continue;
      const doc = found.docs[j]!;
      top.push(doc, this.blocks[Math.floor(doc / BLOCK_ROWS)]!.rescore(doc % BLOCK_ROWS));
    }
    return top.sorted();
  }

  /** `nearest` from every row's float score. */
  private scanned(query: Float32Array, k: number, admitted?: Uint8Array): Scored[] {
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

/** The query's 16-bit codes (padded to the coded row length), with the size of their rounding. */
function codeQuery(query: Float32Array, dims: number): CodedQuery {
  const codes = new Int16Array(codedStride(dims));
  let max = 0;
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const x = query[i] ?? 0;
    max = Math.max(max, Math.abs(x));
    norm += x * x;
  }
  const scale = max / QUERY_LEVELS;
  let error = 0;
  for (let i = 0; i < dims; i++) {
    const x = query[i] ?? 0;
    const c = scale ? Math.max(-QUERY_LEVELS, Math.min(QUERY_LEVELS, nearestWhole(x / scale))) : 0;
    codes[i] = c;
    error += (x - scale * c) ** 2;
  }
  return { codes, scale, error: Math.sqrt(error), norm: Math.sqrt(norm) };
}

/** Bytes per coded row: the dimensions rounded up to a multiple of 16 (one SIMD load). */
const codedStride = (dims: number) => Math.ceil(dims / 16) * 16;

/** A full block's rows as 8-bit codes, in the WebAssembly memory of its floats. */
interface Codes {
  stride: number;
  rows: Int8Array;
  query: Int16Array;
  sums: Int32Array;
  /** Per row: the code's unit, ‖scale·codes‖, and ‖row − scale·codes‖ plus room for float rounding (both rounded up). */
  scale: Float32Array;
  error: Float32Array;
  norm: Float32Array;
}

/** One block of rows in one allocation; a full block in WebAssembly memory, with its codes. */
class Block {
  /** Floats per stored row: `dims` rounded up to a multiple of four (the SIMD lane count). */
  private readonly stride: number;
  private data!: Float32Array;
  private query!: Float32Array;
  private scores!: Float32Array;
  private simd: SimdScan | null = null;
  /** The rows as 8-bit codes (a full block where WebAssembly SIMD runs), else null. */
  private codes: Codes | null = null;
  capacity = 0;
  private count: number;

  /**
   * `rows` rows of zeros, room for more reserved as rows are appended (capacity doubles, so an
   * append costs O(1) on average).
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

  /** Whether this block can scan its codes. */
  get coded(): boolean {
    return this.codes !== null;
  }

  /** Bytes this block holds (for the index budget). */
  get bytes(): number {
    return this.data.buffer.byteLength + (this.codes ? 12 * this.capacity : 0);
  }

  private allocate(capacity: number): void {
    const old = this.capacity ? this.data : null;
    const floats = capacity * this.stride + this.stride + capacity;
    // Only a full block gets WebAssembly memory, once: creating one is costly (each reserves a
    // large address range, and freeing them drove garbage collection to 1.8 s in an ingest that
    // grew blocks step by step), and small ones would hold a 64 KiB page each. A block still
    // growing scans in JavaScript; it holds fewer than BLOCK_ROWS rows.
    const coding = this.dims <= MAX_CODED_DIMS;
    const cStride = codedStride(this.dims);
    const codeBytes = coding ? capacity * cStride + 2 * cStride + 4 * capacity : 0;
    this.simd =
      this.options.simd === false || capacity < BLOCK_ROWS ? null : createSimdScan(floats * 4 + codeBytes);
    const buffer = this.simd?.buffer ?? new ArrayBuffer(floats * 4);
    this.data = new Float32Array(buffer, 0, capacity * this.stride);
    this.query = new Float32Array(buffer, this.data.byteLength, this.stride);
    this.scores = new Float32Array(buffer, this.data.byteLength + this.query.byteLength, capacity);
    if (old) this.data.set(old.subarray(0, this.count * this.stride));
    this.capacity = capacity;
    this.codes = null;
    if (this.simd && coding) {
      const at = floats * 4;
      this.codes = {
        stride: cStride,
        rows: new Int8Array(buffer, at, capacity * cStride),
        query: new Int16Array(buffer, at + capacity * cStride, cStride),
        sums: new Int32Array(buffer, at + capacity * cStride + 2 * cStride, capacity),
        scale: new Float32Array(capacity),
        error: new Float32Array(capacity),
        norm: new Float32Array(capacity),
      };
      for (let r = 0; r < this.count; r++) this.encode(r);
    }
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
    if (this.codes) this.encode(row);
  }

  /** Makes a row all zeros again (its vector was deleted). */
  clear(row: number): void {
    this.data.fill(0, row * this.stride, (row + 1) * this.stride);
    if (this.codes) this.encode(row);
  }

  /** Writes a row's codes from its floats: one unit per row, the largest value coded as ±127. */
  private encode(row: number): void {
    const c = this.codes!;
    const data = this.data;
    const codes = c.rows;
    const off = row * this.stride;
    const at = row * c.stride;
    let max = 0;
    for (let i = 0; i < this.dims; i++) {
      const a = Math.abs(data[off + i]!);
      if (a > max) max = a;
    }
    const scale = Math.fround(max / 127);
    // |x| / scale exceeds 127 by float rounding at most (far from 127.5), so no code leaves ±127.
    const inverse = scale ? 1 / scale : 0;
    let error = 0;
    let norm = 0;
    let length = 0;
    for (let i = 0; i < this.dims; i++) {
      const x = data[off + i]!;
      const code = nearestWhole(x * inverse);
      codes[at + i] = code;
      const value = scale * code;
      error += (x - value) * (x - value);
      norm += value * value;
      length += x * x;
    }
    // The float scan that scores a candidate again sums in float32, in lanes of dims/4 terms and
    // then three adds: its result is within (dims/4 + 3) float32 roundings of ‖row‖·‖query‖.
    const rounding = (this.stride / 4 + 4) * 2 ** -23 * Math.sqrt(length);
    c.scale[row] = scale;
    c.error[row] = roundedUp(Math.sqrt(error) + rounding);
    c.norm[row] = roundedUp(Math.sqrt(norm));
  }

  /** Similarity of one row to the query. */
  similarity(row: number, query: Float32Array): number {
    const off = row * this.stride;
    let s = 0;
    for (let i = 0; i < this.dims; i++) s += this.data[off + i]! * query[i]!;
    return s;
  }

  /** A row's floats, as a view. */
  vector(row: number): Float32Array {
    return this.data.subarray(row * this.stride, row * this.stride + this.dims);
  }

  /** A row's score from its floats, for the query of the last `collect` (coded blocks only). */
  rescore(row: number): number {
    const at = this.data.byteOffset + row * this.stride * 4;
    this.simd!.scan(at, this.query.byteOffset, 1, this.stride, this.scores.byteOffset + row * 4);
    return this.scores[row]!;
  }

  /** Adds this block's rows (numbered from `base`) to the candidates, each with bounds around its coded score. */
  collect(
    query: Float32Array,
    coded: CodedQuery,
    base: number,
    admitted: Uint8Array | undefined,
    found: Candidates,
  ): void {
    const { lower, docs, upper } = found;
    let floor = lower.floor;
    const n = this.count;
    this.load(query);
    const c = this.codes!;
    c.query.set(coded.codes);
    this.simd!.scan8(c.rows.byteOffset, c.query.byteOffset, n, c.stride, c.sums.byteOffset);
    const { sums, scale, error, norm } = c;
    const unit = coded.scale;
    const qError = coded.error;
    const qNorm = coded.norm;
    for (let r = 0; r < n; r++) {
      const doc = base + r;
      if (admitted && !admitted[doc]) continue;
      // row·q = scale·unit·(codes·qcodes) + scale·codes·(q's rounding) + (row's rounding)·q
      const s = sums[r]! * scale[r]! * unit;
      const e = error[r]! * qNorm + norm[r]! * qError + SLACK;
      if (s - e > floor) {
        lower.push(doc, s - e);
        floor = lower.floor;
      }
      if (s + e >= floor) {
        docs.push(doc);
        upper.push(s + e);
      }
    }
  }

  /** A row's score for the query of the last `load`, as `score` computes it. */
  loadedScore(row: number): number {
    if (this.simd) {
      this.simd.scan(
        this.data.byteOffset + row * this.stride * 4,
        this.query.byteOffset,
        1,
        this.stride,
        this.scores.byteOffset + row * 4,
      );
      return this.scores[row]!;
    }
    // Rounded as `score` stores it (a Float32Array).
    return Math.fround(this.laneSum(row));
  }

  /** A row's dot product with the loaded query in four lanes, as the SIMD scan sums (JavaScript). */
  private laneSum(row: number): number {
    const m = this.data;
    const q = this.query;
    const off = row * this.stride;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < this.stride; i += 4) {
      s0 += m[off + i]! * q[i]!;
      s1 += m[off + i + 1]! * q[i + 1]!;
      s2 += m[off + i + 2]! * q[i + 2]!;
      s3 += m[off + i + 3]! * q[i + 3]!;
    }
    return s0 + s1 + s2 + s3;
  }

  /** Puts the query where the kernels read it. */
  load(query: Float32Array): void {
    this.query.fill(0);
    this.query.set(query.subarray(0, this.dims));
  }

  /** Every row's similarity to `query` from the floats, by row (valid until the next call). */
  score(query: Float32Array): Float32Array {
    this.load(query);
    if (this.simd) {
      this.simd.scan(0, this.query.byteOffset, this.count, this.stride, this.scores.byteOffset);
      return this.scores;
    }
    for (let doc = 0; doc < this.count; doc++) this.scores[doc] = this.laneSum(doc);
    return this.scores;
  }
}

/**
 * `x` rounded to the nearest whole number (ties to even), for |x| < 2^51: adding 1.5 × 2^52 leaves
 * no bits for a fraction. Math.round took four times as long, and coding rows was most of the
 * time a 100K-row index took to load.
 */
function nearestWhole(x: number): number {
  return x + 6755399441055744 - 6755399441055744;
}

/** A float32 at or above `x` (a bound must not shrink when stored). */
function roundedUp(x: number): number {
  const f = Math.fround(x);
  return f >= x ? f : Math.fround(x * (1 + 2 ** -22));
}
