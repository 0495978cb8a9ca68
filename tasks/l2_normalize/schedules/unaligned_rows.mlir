// The unaligned_rows variant of l2_normalize's dispatch (schedules/dispatch.json:
// rows whose length is not a multiple of 4): one row of 1024 columns a step
// per CTA of 8 warps (the default has 2 rows a CTA of 4), read once when it
// fits (transform.tile.single_pass), interior tiles of such rows with plain
// scalar accesses instead of masks (transform.tile.scalar_unaligned_rows) and
// L2 eviction hints between the passes of longer rows
// (transform.tile.cache_hints). On an H100 machine (2026-12-06, run
// 2026-12-06-batchnorm-h100, full protocol): 17.3 against 17.8 us for the
// same on 4 warps at 1024 x 4099 (torch.compile 14.9: still slower); 2 warps
// took 19.0, 8 warps by 2048 columns 18.5, 16 warps by 4096 columns 21.9.
// Earlier (run 2026-12-06-scalar-rows-h100) 2 rows a CTA with plain scalars
// had taken 19.2 against 22.1 us with masks.
//
//   kbench compile tasks/l2_normalize --schedule tasks/l2_normalize/schedules/unaligned_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.tile.scalar_unaligned_rows %k 1 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.yield
  }
}
