// rotary's schedule for heads in multiples of 32 and heads wider than 64
// (schedules/dispatch.json): 1 token by 32 heads per CTA of 8 warps, 16
// elements per thread, so a CTA reads a token's whole row of heads. On the
// H200 machine (2026-12-03) 131.5 us at the tune shape (32 heads of 128)
// against 146.1 us with the default; with 8 or 40 heads it wastes most of
// its CTA (36.3 and 45.3 us against 13.8 and 32.8).
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
    transform.tile.set_params %k {BT = 1, BNH = 32, BH = 128} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
