// Default schedule of row_softmax: 4 rows of up to 1024 columns per CTA of
// 4 warps (32 elements per thread), 16-byte accesses where the row length
// is known to be a multiple of 4.
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
    // Rows start 16-byte aligned only if N % 4 == 0 is among the kernel's
    // requires facts; otherwise use scalar accesses. Consumes %k: keep last.
    transform.alternatives %k : !transform.any_op {
    ^bb0(%kernel: !transform.any_op):
      transform.tile.vector_width %kernel 4 : !transform.any_op
    }, {
    ^bb0(%kernel: !transform.any_op):
      transform.tile.vector_width %kernel 1 : !transform.any_op
    }
    transform.yield
  }
}
