;; The dense scan's WebAssembly SIMD kernels (simd-scan.ts holds these bytes; a test assembles
;; this text and checks that they match).
;;
;; scan: for each of $rows rows of $dims float32s at $mat (a multiple of four), the dot product
;; with the query at $q, four lanes at a time, as a float32 into $out.
;;
;; scan8: for each of $rows rows of $stride signed bytes at $codes, the dot product with a query
;; of $stride 16-bit integers at $q, as a 32-bit integer into $out. $stride is a multiple of 16:
;; one 128-bit load holds 16 codes, widened to two halves of eight 16-bit lanes, each multiplied
;; with the query's lanes and summed in pairs.
(module
  (import "env" "memory" (memory 1))
  (func (export "scan") (param $mat i32) (param $q i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $i i32) (local $acc v128) (local $row i32) (local $bytes i32)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $row (local.get $mat))
    (block $done (loop $rows_loop
      (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
      (local.set $acc (v128.const i32x4 0 0 0 0))
      (local.set $i (i32.const 0))
      (block $end (loop $lanes
        (br_if $end (i32.ge_u (local.get $i) (local.get $bytes)))
        (local.set $acc (f32x4.add (local.get $acc)
          (f32x4.mul (v128.load (i32.add (local.get $row) (local.get $i)))
                     (v128.load (i32.add (local.get $q) (local.get $i))))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $lanes)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
        (f32.add (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
                 (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
      (local.set $row (i32.add (local.get $row) (local.get $bytes)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rows_loop))))
  (func (export "scan8") (param $codes i32) (param $q i32) (param $rows i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $i i32) (local $acc v128) (local $row i32) (local $v v128) (local $qp i32)
    (local.set $row (local.get $codes))
    (block $done (loop $rows_loop
      (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
      (local.set $acc (v128.const i32x4 0 0 0 0))
      (local.set $i (i32.const 0))
      (local.set $qp (local.get $q))
      (block $end (loop $lanes
        (br_if $end (i32.ge_u (local.get $i) (local.get $stride)))
        (local.set $v (v128.load (i32.add (local.get $row) (local.get $i))))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $v)) (v128.load (local.get $qp)))))
        (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $v)) (v128.load offset=16 (local.get $qp)))))
        (local.set $qp (i32.add (local.get $qp) (i32.const 32)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $lanes)))
      (i32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
        (i32.add (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
                 (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
      (local.set $row (i32.add (local.get $row) (local.get $stride)))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $rows_loop))))
)
