// Schedule of logsumexp's split kernels (kernel_split.mlir), for the shapes
// of schedules/dispatch.json (M <= 1024): the partial kernel takes 4
// rows by 1024 columns a step on 4 warps in 16-byte vectors, 4 steps per
// chunk of 4096; the combining kernel reads the [P, M] partials of 128 rows
// in 16-byte vectors. At 512 x 50257 that is 128 x 13 = 1,664 partial CTAs
// where the one-pass default has 128. On an H100 machine (2026-12-06): 43.9
// against 71.1 us at 512 x 50257.
//
//   kbench compile tasks/logsumexp -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "logsumexp_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %partial 4 : !transform.any_op
    transform.tile.set_params %partial {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %partial 4 : !transform.any_op
    %finish = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "logsumexp_finish"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %finish 4 : !transform.any_op
    transform.yield
  }
}
