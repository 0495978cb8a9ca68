// The short_rows variant of add_layernorm's dispatch (schedules/dispatch.json:
// rows of up to 1024 columns): one row per CTA of 4 warps, read once
// (transform.tile.single_pass), with plain scalars for interior tiles of
// rows not aligned for vector_width 4 (transform.tile.scalar_unaligned_rows)
// and L2 eviction hints for the multi-pass fallback, which rows within the
// variant's bound never take (transform.tile.cache_hints). on an H100 machine (2026-12-06, run 2026-12-06-long-rows-h100):
// 17.8 against 19.6 us for 2 rows per 4-warp CTA at 3000 x 1000
// (torch.compile 19.9).
//
//   kbench compile tasks/add_layernorm --schedule tasks/add_layernorm/schedules/short_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.tile.scalar_unaligned_rows %k 1 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.yield
  }
}
