// Default schedule of rotary (schedules/dispatch.json picks it unless the
// heads come in multiples of 32): 1 token by 8 heads of one whole head (up
// to 128 columns) per CTA of 4 warps, 8 elements per thread; vector_width 4
// gives the loads of x, cos and sin, the partner columns (consecutive
// indices: one vector each, checked at run time) and the store of y 16-byte
// accesses. On the H200 machine (2026-12-03) it took 146.1 us at the tune
// shape against 161.2 us with 2 tokens by 4 heads, and no more at the
// heldout shapes.
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
    transform.tile.set_params %k {BT = 1, BNH = 8, BH = 128} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
