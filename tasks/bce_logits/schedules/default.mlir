// Default schedule of bce_logits: 4 rows per CTA of 8 warps, walked 1024
// columns at a time (16 elements per thread). 16-byte accesses (vector_width
// 4, which divides BR, the width of the y tile) when N % 4 == 0, which
// tile-to-gpu checks at run time.
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
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    // Masks only on the row tiles that reach past N (transform.tile.
    // mask_boundary_tiles): on the H200 machine (2026-12-05) 139.6 / 15.2 /
    // 49.3 us at the tune and heldout shapes against 147.8 / 14.8 / 52.9 us
    // with the masks on every tile.
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}
