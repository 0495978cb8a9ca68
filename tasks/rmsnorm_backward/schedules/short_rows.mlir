// Schedule of rmsnorm_backward for rows shorter than 2046 columns
// (schedules/dispatch.json): one row of up to 512 columns per CTA of one warp,
// scalar accesses, and transform.tile.single_pass (a row that fits one tile
// is loaded once). Found by kbench search with default.mlir (candidate c0-28,
// fastest at the derived shape 16384 x 1023).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/short_rows.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 512} : !transform.any_op
    transform.tile.vector_width %k 1 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
