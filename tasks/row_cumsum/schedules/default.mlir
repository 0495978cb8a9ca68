// Default schedule of row_cumsum: 4 rows per CTA of 4 warps, walked 1024 columns at a time (8 elements per thread), each element read once and written once.
// 16-byte accesses (vector_width 4) when N % 4 == 0, which tile-to-gpu
// checks at run time.
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
    transform.yield
  }
}
