/**
 * The dense scan's kernel in WebAssembly SIMD: for each row of signed 8-bit codes, the dot
 * product with a query of 16-bit codes, as a 32-bit integer, sixteen codes per load. Node's JIT
 * does not vectorise the plain loop, and a scan of float rows is bound by memory traffic: 8-bit
 * rows are a quarter of the bytes (100K rows of 256 dimensions: 1.0 ms against 3.2 ms for the
 * float kernel this replaced). vector-matrix.ts turns the integer sums back into scores with
 * bounds on their error and scores the rows that could still be among the best exactly.
 *
 * The module's text form is simd-scan.wat beside this file; the bytes below are it assembled
 * (a test assembles the text again and compares). No toolchain runs at build or install time.
 */

const MODULE =
  "AGFzbQEAAAABCQFgBX9/f39/AAIPAQNlbnYGbWVtb3J5AgABAwIBAAcIAQRzY2FuAAAKwAEBvQEFAn8BewF/AXsBfyAAIQgCQANAIAUgAk8NAf0MAAAAAAAAAAAAAAAAAAAAACEHQQAhBiABIQoCQANAIAYgA08NASAIIAZq/QAEACEJIAcgCf2HASAK/QAEAP26Af2uASEHIAcgCf2IASAK/QAEEP26Af2uASEHIApBIGohCiAGQRBqIQYMAAsLIAQgBUECdGogB/0bACAH/RsBaiAH/RsCIAf9GwNqajYCACAIIANqIQggBUEBaiEFDAALCws=";

/** The kernel's bytes (web-standard base64 decoding, so this runs outside Node too). */
export const SIMD_SCAN_BYTES = Uint8Array.from(atob(MODULE), (c) => c.charCodeAt(0));

let compiled: WebAssembly.Module | null | undefined;

/** A scan bound to its own memory of `bytes` bytes, seen through `buffer`. */
export interface SimdScan {
  buffer: ArrayBuffer;
  /**
   * Dot products of `rows` rows of `stride` signed bytes (from byte offset `codes`) with the
   * `stride` 16-bit integers at byte offset `q`, as 32-bit integers from byte offset `out`.
   * `stride` must be a multiple of 16.
   */
  scan(codes: number, q: number, rows: number, stride: number, out: number): void;
}

/** A SIMD scan with `bytes` bytes of memory, or null where WebAssembly SIMD is unavailable. */
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
  return { buffer: memory.buffer, scan: instance.exports.scan as SimdScan["scan"] };
}
