// Rows whose length is not a multiple of 2, from 1025 rows up (fewer run the
// split; schedules/dispatch.json): one row per 1-warp CTA, 1024 columns a step,
// plain scalar accesses, the row read once (transform.tile.single_pass: its
// tiles stay in registers between the statistics and the gradient). A live
// search's find from the naive point (docs/search.md, 2026-12-07): on an H100
// machine, full protocol, 859.3 against 915.7 us at 4096 x 50257 for the
// earlier variant (4 rows per 4-warp CTA, 2-wide accesses with scalar
// interior tiles; torch.compile 1051, run 2026-12-06-suite-h100-c). At the
// task's aligned heldout shapes the find was slower than the other
// variants (13.6 against 11.9 us at 3000 x 1000), so it serves only these rows.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 1 : !transform.any_op
    transform.tile.cache_hints %k 0 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
