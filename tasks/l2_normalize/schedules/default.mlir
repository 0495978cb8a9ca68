// Default schedule of l2_normalize: 2 rows of up to 1024 columns per CTA of 4
// warps, 16-byte accesses (vector_width 4) when N % 4 == 0 (checked at run
// time by tile-to-gpu), and transform.tile.single_pass: rows that fit one tile
// (N <= 1024, the tune shape's 768 columns) are loaded once and kept in
// registers for the sum of squares and the scaling; longer rows take the two
// passes. On the H200 machine (2026-12-03): 99.7 us at 65536 x 768 against
// 124.7 us for the earlier default (4 rows, two passes), 0.97x torch.compile
// instead of 0.77x (docs/results.md).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 2, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
