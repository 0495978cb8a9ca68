// Default schedule of linear_bias_relu (fp32, SIMT mma): a 128x128 CTA tile
// with BK = 8 and 8 warps, so each of the 256 threads owns an 8x8 register
// micro-tile (64 accumulators) and the double-buffered operand staging needs
// (128*8 + 128*8) * 4 * 2 = 16 KB of shared memory. Grouped raster order
// keeps 8 rows of blocks sharing W tiles in L2.
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
    // Warps first: the register estimate of the larger tile depends on them.
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 8} : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // 16-byte accesses. Rows of X and W are 16-byte aligned only when
    // K % 4 == 0 (and of Y when N % 4 == 0), which the kernel does not
    // require: tile-to-gpu checks it at run time and loads the operand tiles
    // with ld.global.v4 when it holds, masked scalar loads otherwise.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
