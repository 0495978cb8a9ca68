// Schedule of cross_entropy_backward's split kernels (kernel_split.mlir),
// for the shapes of schedules/dispatch.json (M <= 1024): the
// statistics kernel takes 4 rows by 1024 columns a step on 4 warps, 4 steps
// per chunk of 4096, in 16-byte vectors; the gradient kernel one 4 x 1024
// tile per CTA of 4 warps (int64 targets keep its vector_width at 2, as in
// the default). At 512 x 32000 that is 1,024 statistics CTAs and 4,096
// gradient CTAs where the one-kernel default has 128. On the H200 machine
// (2026-12-06): 54.9 against 109.0 us at 512 x 32000.
//
//   kbench compile tasks/cross_entropy_backward \
//     --dispatch tasks/cross_entropy_backward/schedules/dispatch.json -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %stats = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "cross_entropy_backward_stats"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %stats 4 : !transform.any_op
    transform.tile.set_params %stats {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %stats 4 : !transform.any_op
    %apply = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "cross_entropy_backward_apply"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %apply 4 : !transform.any_op
    transform.tile.vector_width %apply 2 : !transform.any_op
    transform.yield
  }
}
