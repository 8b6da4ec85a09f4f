/**
 * The dense scan's kernels in WebAssembly SIMD (Node's JIT does not vectorise the plain loops):
 * - `scan`: each float32 row's dot product with a float32 query, four lanes at a time;
 * - `scan8`: each row of signed 8-bit codes with a query of 16-bit codes, as a 32-bit integer,
 *   sixteen codes per load. A scan of float rows is bound by memory traffic, and 8-bit rows are a
 *   quarter of the bytes, and scan about three times faster (`npm run bench -- recall`).
 * vector-matrix.ts scans codes, turns the sums back into scores with bounds on their error, and
 * scores again with `scan`, one row at a time, the rows that could still be among the best.
 *
 * The module's text form is simd-scan.wat beside this file; the bytes below are it assembled
 * (a test assembles the text again and compares). No toolchain runs at build or install time.
 */

const MODULE =
  "AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwMCAAAHEAIEc2NhbgAABXNjYW44AAEK3gICnAEDAn8BewJ/IANBAnQhCSAAIQgCQANAIAUgAk8NAf0MAAAAAAAAAAAAAAAAAAAAACEHQQAhBgJAA0AgBiAJTw0BIAcgCCAGav0ABAAgASAGav0ABAD95gH95AEhByAGQRBqIQYMAAsLIAQgBUECdGogB/0fACAH/R8BkiAH/R8CIAf9HwOSkjgCACAIIAlqIQggBUEBaiEFDAALCwu9AQUCfwF7AX8BewF/IAAhCAJAA0AgBSACTw0B/QwAAAAAAAAAAAAAAAAAAAAAIQdBACEGIAEhCgJAA0AgBiADTw0BIAggBmr9AAQAIQkgByAJ/YcBIAr9AAQA/boB/a4BIQcgByAJ/YgBIAr9AAQQ/boB/a4BIQcgCkEgaiEKIAZBEGohBgwACwsgBCAFQQJ0aiAH/RsAIAf9GwFqIAf9GwIgB/0bA2pqNgIAIAggA2ohCCAFQQFqIQUMAAsLCw==";

/** The kernel's bytes (web-standard base64 decoding, so this runs outside Node too). */
export const SIMD_SCAN_BYTES = Uint8Array.from(atob(MODULE), (c) => c.charCodeAt(0));

let compiled: WebAssembly.Module | null | undefined;

/** The kernels bound to their own memory of `bytes` bytes, seen through `buffer`. */
export interface SimdScan {
  buffer: ArrayBuffer;
  /**
   * Dot products of `rows` rows of `dims` float32s (from byte offset `mat`; `dims` a multiple of
   * four) with the `dims` float32s at byte offset `q`, as float32s from byte offset `out`.
   */
  scan(mat: number, q: number, rows: number, dims: number, out: number): void;
  /**
   * Dot products of `rows` rows of `stride` signed bytes (from byte offset `codes`) with the
   * `stride` 16-bit integers at byte offset `q`, as 32-bit integers from byte offset `out`.
   * `stride` must be a multiple of 16.
   */
  scan8(codes: number, q: number, rows: number, stride: number, out: number): void;
}

/** The SIMD kernels with `bytes` bytes of memory, or null where WebAssembly SIMD is unavailable. */
export function createSimdScan(bytes: number): SimdScan | null {
  if (compiled === undefined) {
    try {
      compiled = WebAssembly.validate(SIMD_SCAN_BYTES) ? new WebAssembly.Module(SIMD_SCAN_BYTES) : null;
    } catch {
      compiled = null;
    }
  }
  if (!compiled) return null;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65_536)) });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  return {
    buffer: memory.buffer,
    scan: instance.exports.scan as SimdScan["scan"],
    scan8: instance.exports.scan8 as SimdScan["scan8"],
  };
}
