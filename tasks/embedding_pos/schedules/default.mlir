// Default schedule of embedding_pos: 4 tokens by 256 columns per CTA of 4 warps
// (two 16-byte runs per thread: 32 lanes x 4 elements x 2 cover 256 columns
// of one token per warp); vector_width 4 moves each run of either table row as
// one 16-byte access when D % 4 == 0 (checked at run time by tile-to-gpu).
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
    transform.tile.set_params %k {BT = 4, BD = 256} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
