// Default schedule of rotary_cache: 4 tokens by 2 heads of one whole head
// (up to 128 columns) per CTA of 4 warps, 8 elements per thread (4 tokens:
// vector_width 4 must divide the BT-wide tile of position ids);
// vector_width 4 gives the load of x, the gathers of the cos and sin rows
// (one position per run) and the store of y 16-byte accesses (the partner
// columns are gathered element by element: their index is not one per
// run).
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
    transform.tile.set_params %k {BT = 4, BNH = 2, BH = 128} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
