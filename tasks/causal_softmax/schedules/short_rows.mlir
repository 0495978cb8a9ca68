// Candidate variant of causal_softmax for rows of up to 1024 columns
// (schedules/dispatch-short-rows.json), not yet measured on a GPU: one row
// per CTA of one warp, read once (transform.tile.single_pass), the pattern
// of log_softmax's short_rows (10.2 against 15.1 us at 3000 x 1000). The
// default took 13.2 us against 10.7 for torch.compile at 2048 x 1000 on the
// H200 machine (2026-12-06).
//
//   kbench compile tasks/causal_softmax --dispatch tasks/causal_softmax/schedules/dispatch-short-rows.json -o OUT
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
