// The unaligned_rows variant of l2_normalize's dispatch (schedules/dispatch.json:
// rows whose length is not a multiple of 4): one row of 1024 columns a step
// per CTA of 4 warps (the default has 2 rows a CTA), read once when it fits
// (transform.tile.single_pass), interior tiles of such rows with plain scalar
// accesses instead of masks (transform.tile.scalar_unaligned_rows) and L2
// eviction hints between the passes of longer rows (transform.tile.cache_hints).
// on an H100 machine (2026-12-06, run 2026-12-06-long-rows-h100): 17.8 against 19.4 us for 2 rows a CTA
// at 1024 x 4099 (torch.compile 14.8: still slower); 2 rows a CTA with plain
// scalars had taken 19.2 against 22.1 us with masks. One row on 8 warps and
// 2048 columns took 18.5.
//
//   kbench compile tasks/l2_normalize --schedule tasks/l2_normalize/schedules/unaligned_rows.mlir -o OUT
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
