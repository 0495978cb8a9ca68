// Default schedule of row_sum_long: tiles of 4 rows x 1024 columns, 4
// warps, 16-byte accesses, and the rows split across CTAs in chunks of 8
// tiles (BS = 8192 columns) by transform.tile.split_reduction: at the tune
// shape 16 x 2^20 that is 4 x 128 = 512 CTAs instead of 4 (one per row
// tile), each summing 128 KB and adding its partial sums into y with
// atomics; a first launch (@row_sum_zero, added by the op) zeroes y.
// docs/rewrites.md.
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
    transform.tile.set_params %k {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}
