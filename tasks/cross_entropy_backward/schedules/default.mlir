// Default schedule of cross_entropy_backward: 4 rows per CTA of 4 warps,
// walked 1024 columns at a time in both passes. vector_width 2 (8-byte
// accesses to x and dx) is the widest the int64 targets allow: one
// kernel-wide width moves at most 16 bytes per access for every argument.
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
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.yield
  }
}
