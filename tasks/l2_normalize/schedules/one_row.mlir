// Candidate variant of l2_normalize for rows of 1025 to 8192 columns
// (schedules/dispatch-one-row.json), not yet measured on a GPU: one row per
// CTA of 8 warps in one tile, read once (transform.tile.single_pass). The
// default (2 rows of 1024 columns per 4-warp CTA) reads a row of 4099
// columns twice in 5 tiles and took 21.0 us against 13.5 for torch.compile at
// 1024 x 4099 on the H200 machine (2026-12-06, 0.65x).
//
//   kbench compile tasks/l2_normalize --dispatch tasks/l2_normalize/schedules/dispatch-one-row.json -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 8192} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
