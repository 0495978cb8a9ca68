// Schedule of cross_entropy's split kernels (kernel_split.mlir), for the
// shapes of schedules/dispatch.json (M <= 1024): the partial kernel
// takes 4 rows by 1024 columns a step on 4 warps, 4 steps per chunk of 4096
// (int64 targets keep vector_width at 2, as in the default); the combining
// kernel reads the [P, M] partials of 128 rows in 16-byte vectors. At 512 x
// 32000 that is 128 x 8 = 1,024 partial CTAs where the one-pass default has
// 128. On the H200 machine (2026-12-06): 26.5 against 51.8 us at 512 x
// 32000.
//
//   kbench compile tasks/cross_entropy \
//     --dispatch tasks/cross_entropy/schedules/dispatch.json -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "cross_entropy_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %partial 4 : !transform.any_op
    transform.tile.set_params %partial {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %partial 2 : !transform.any_op
    %finish = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "cross_entropy_finish"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %finish 4 : !transform.any_op
    transform.yield
  }
}
