// Default schedule of transpose: 64 x 64 tiles per CTA of 8 warps, 16-byte
// accesses (vector_width 4 when the rows are aligned at run time, checked by
// tile-to-gpu), and the transposed tile stored through padded shared memory
// (transform.tile.stage_transposes), so that the writes of y are 16-byte
// coalesced runs too.
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
    transform.tile.set_params %k {BM = 64, BN = 64} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.stage_transposes %k 1 : !transform.any_op
    transform.yield
  }
}
