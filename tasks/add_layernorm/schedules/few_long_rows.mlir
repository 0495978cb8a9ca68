// The few_long_rows variant of add_layernorm's dispatch
// (schedules/dispatch.json: at most 1024 rows of more than 2048 columns): one
// row per CTA of 8 warps walked 2048 columns a step (the default has 4 rows
// of 1024 a CTA, so a few rows leave most SMs idle), with plain scalars for
// interior tiles of unaligned rows (transform.tile.scalar_unaligned_rows) and
// L2 eviction hints between the passes (transform.tile.cache_hints).
// on an H100 machine (2026-12-06, run 2026-12-06-long-rows-h100): 36.0 against 41.4 us for the default at
// 1024 x 4099 (torch.compile 43.0); 4 warps on 1024 columns 39.6, 16 warps on
// 4096 49.8. Many long rows keep the default (not measured with this one).
//
//   kbench compile tasks/add_layernorm --schedule tasks/add_layernorm/schedules/few_long_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 2048} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.tile.scalar_unaligned_rows %k 1 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.yield
  }
}
