// The rows_1024 variant of causal_softmax's dispatch (schedules/dispatch.json:
// rows of up to 1024 columns): one row per CTA of 4 warps, read once
// (transform.tile.single_pass). on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100): 10.4 against 13.7 us for the
// default (2 rows of 1024 per 4-warp CTA, two passes) at 2048 x 1000
// (torch.compile 11.1; 2 warps 11.4). An earlier single-pass candidate on one
// warp was no faster than the default (14.1 against 13.9 us).
//
//   kbench compile tasks/causal_softmax --schedule tasks/causal_softmax/schedules/rows_1024.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
