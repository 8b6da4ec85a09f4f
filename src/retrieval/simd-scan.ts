/**
 * The dense scan in WebAssembly SIMD: for each row of a row-major f32 matrix, the dot product
 * with a query, four lanes at a time. Node's JIT does not vectorise the plain loop; this runs the
 * same arithmetic in 128-bit lanes. The module is written out byte by byte below (no toolchain
 * at build time); its text form:
 *
 *   (module
 *     (import "env" "memory" (memory 1))
 *     (func (export "scan") (param $mat i32) (param $q i32) (param $rows i32) (param $dims i32)
 *                           (param $out i32)
 *       (local $r i32) (local $i i32) (local $acc v128) (local $row i32) (local $bytes i32)
 *       (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
 *       (local.set $row (local.get $mat))
 *       (block $done (loop $rows_loop
 *         (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
 *         (local.set $acc (v128.const i32x4 0 0 0 0))
 *         (local.set $i (i32.const 0))
 *         (block $end (loop $lanes
 *           (br_if $end (i32.ge_u (local.get $i) (local.get $bytes)))
 *           (local.set $acc (f32x4.add (local.get $acc)
 *             (f32x4.mul (v128.load (i32.add (local.get $row) (local.get $i)))
 *                        (v128.load (i32.add (local.get $q) (local.get $i))))))
 *           (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *           (br $lanes)))
 *         (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
 *           (f32.add (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
 *                    (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
 *         (local.set $row (i32.add (local.get $row) (local.get $bytes)))
 *         (local.set $r (i32.add (local.get $r) (i32.const 1)))
 *         (br $rows_loop))))
 *
 * Rows must be a multiple of four floats long (callers pad); the query is padded the same way.
 */

const SIMD = 0xfd;
const code = [
  // locals: 2 × i32 ($r $i), 1 × v128 ($acc), 2 × i32 ($row $bytes)
  0x03,
  0x02,
  0x7f,
  0x01,
  0x7b,
  0x02,
  0x7f,
  // $bytes = $dims << 2 ; $row = $mat
  0x20,
  0x03,
  0x41,
  0x02,
  0x74,
  0x21,
  0x09,
  0x20,
  0x00,
  0x21,
  0x08,
  // block $done, loop $rows_loop
  0x02,
  0x40,
  0x03,
  0x40,
  // br_if $done ($r >= $rows)
  0x20,
  0x05,
  0x20,
  0x02,
  0x4f,
  0x0d,
  0x01,
  // $acc = v128.const 0
  SIMD,
  0x0c,
  ...new Array(16).fill(0),
  0x21,
  0x07,
  // $i = 0
  0x41,
  0x00,
  0x21,
  0x06,
  // block $end, loop $lanes
  0x02,
  0x40,
  0x03,
  0x40,
  // br_if $end ($i >= $bytes)
  0x20,
  0x06,
  0x20,
  0x09,
  0x4f,
  0x0d,
  0x01,
  // $acc = f32x4.add($acc, f32x4.mul(v128.load($row + $i), v128.load($q + $i)))
  0x20,
  0x07,
  0x20,
  0x08,
  0x20,
  0x06,
  0x6a,
  SIMD,
  0x00,
  0x02,
  0x00,
  0x20,
  0x01,
  0x20,
  0x06,
  0x6a,
  SIMD,
  0x00,
  0x02,
  0x00,
  SIMD,
  0xe6,
  0x01, // f32x4.mul
  SIMD,
  0xe4,
  0x01, // f32x4.add
  0x21,
  0x07,
  // $i += 16 ; br $lanes ; end loop ; end block
  0x20,
  0x06,
  0x41,
  0x10,
  0x6a,
  0x21,
  0x06,
  0x0c,
  0x00,
  0x0b,
  0x0b,
  // f32.store ($out + ($r << 2), lane0 + lane1 + (lane2 + lane3))
  0x20,
  0x04,
  0x20,
  0x05,
  0x41,
  0x02,
  0x74,
  0x6a,
  0x20,
  0x07,
  SIMD,
  0x1f,
  0x00,
  0x20,
  0x07,
  SIMD,
  0x1f,
  0x01,
  0x92,
  0x20,
  0x07,
  SIMD,
  0x1f,
  0x02,
  0x20,
  0x07,
  SIMD,
  0x1f,
  0x03,
  0x92,
  0x92,
  0x38,
  0x02,
  0x00,
  // $row += $bytes ; $r += 1 ; br $rows_loop ; end loop ; end block ; end func
  0x20,
  0x08,
  0x20,
  0x09,
  0x6a,
  0x21,
  0x08,
  0x20,
  0x05,
  0x41,
  0x01,
  0x6a,
  0x21,
  0x05,
  0x0c,
  0x00,
  0x0b,
  0x0b,
  0x0b,
];

function section(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];

const BYTES = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00,
  // type 0: (i32 i32 i32 i32 i32) -> ()
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
  // import env.memory, min 1 page
  ...section(2, [0x01, ...name("env"), ...name("memory"), 0x02, 0x00, 0x01]),
  // one function of type 0
  ...section(3, [0x01, 0x00]),
  // export "scan" = func 0
  ...section(7, [0x01, ...name("scan"), 0x00, 0x00]),
  // code
  ...section(10, [0x01, ...leb(code.length), ...code]),
]);

let compiled: WebAssembly.Module | null | undefined;

/** A scan bound to its own memory: `floats` float32s of room, seen through `buffer`. */
export interface SimdScan {
  buffer: ArrayBuffer;
  /** Dot products of `rows` rows (byte offset `mat`, `dims` floats each) with the query at `q`, into `out`. */
  scan(mat: number, q: number, rows: number, dims: number, out: number): void;
}

/** A SIMD scan with room for `floats` float32s, or null where WebAssembly SIMD is unavailable. */
export function createSimdScan(floats: number): SimdScan | null {
  if (compiled === undefined) {
    try {
      compiled = WebAssembly.validate(BYTES) ? new WebAssembly.Module(BYTES) : null;
    } catch {
      compiled = null;
    }
  }
  if (!compiled) return null;
  const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil((floats * 4) / 65_536)) });
  const instance = new WebAssembly.Instance(compiled, { env: { memory } });
  return { buffer: memory.buffer, scan: instance.exports.scan as SimdScan["scan"] };
}
