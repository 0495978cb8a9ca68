// Default schedule of linear_backward, one kernel at a time (matched by
// name). The two matmuls take linear_bias_relu's fp32 SIMT configuration: a
// 128x128 CTA tile with BK = 8 and 8 warps (an 8x8 register micro-tile per
// thread), grouped raster order, 16-byte accesses (vector_width 4) when the
// rows are 16-byte aligned (checked at run time by tile-to-gpu). The bias
// gradient takes col_sum's: 32 columns per CTA of 4 warps, 64 rows at a
// time.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %dx 8 : !transform.any_op
    transform.tile.set_params %dx {BM = 128, BN = 128, BK = 8} : !transform.any_op
    transform.tile.raster %dx group_m 8 : !transform.any_op
    transform.tile.vector_width %dx 4 : !transform.any_op
    %dw = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_dw"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %dw 8 : !transform.any_op
    transform.tile.set_params %dw {BM = 128, BN = 128, BK = 8} : !transform.any_op
    transform.tile.raster %dw group_m 8 : !transform.any_op
    transform.tile.vector_width %dw 4 : !transform.any_op
    %db = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_backward_db"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %db 4 : !transform.any_op
    transform.tile.set_params %db {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %db 4 : !transform.any_op
    transform.yield
  }
}
