// Default schedule of matmul_tn: linear_bias_relu's (fp32, SIMT mma): a 128x128
// CTA tile with BK = 8 and 8 warps (an 8x8 register micro-tile per thread),
// grouped raster order (8 rows of blocks share operand tiles in L2), 16-byte
// accesses (vector_width 4) when the rows are 16-byte aligned, which
// tile-to-gpu checks at run time (masked scalar loads otherwise).
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
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 8} : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
