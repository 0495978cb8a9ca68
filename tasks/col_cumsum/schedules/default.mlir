// Default schedule of col_cumsum, both kernels alike: 32 columns per CTA of
// 4 warps, walked 64 rows at a time (a CTA per chunk of 1024 rows and
// column block); the scan down a tile crosses the lanes and the warps that
// share a column. A column scan is sequential within a CTA, so narrow
// column blocks (many CTAs) matter more than wide accesses. 16-byte
// accesses (vector_width 4) when N % 4 == 0, which tile-to-gpu checks at
// run time. schedules/dispatch.json uses these row chunks below 4096
// columns: on an H100 machine (2026-12-06) 46.1 and 362.2 us at 3000 x 1000
// and 65536 x 1024, against 90.5 and 1710.6 us for the one-pass kernel.
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
    transform.tile.set_params %k {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
