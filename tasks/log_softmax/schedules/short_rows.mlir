// Candidate schedule of log_softmax for rows under about 2048 columns (the
// heldout 3000 x 1000), not yet measured on a GPU: one row of up to 1024
// columns per CTA of one warp, read once (transform.tile.single_pass; 64
// registers, no spills), the pattern of rmsnorm's and add_rmsnorm_bf16's
// short-rows variants (add_rmsnorm_bf16 went from 25.8 to 13.4 us at 3000 x
// 1000). The default (one row of 2048 columns per 8-warp CTA, read twice) took
// 15.4 us against 10.4 us for eager and 11.7 us for torch.compile at 3000 x
// 1000 on an H100 machine (2026-12-06). Rows wider than the tile take the
// kernel's multi-pass loop, so the task would dispatch on N.
//
//   kbench compile tasks/log_softmax --schedule tasks/log_softmax/schedules/short_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
