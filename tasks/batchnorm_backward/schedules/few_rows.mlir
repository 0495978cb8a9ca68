// Schedule of kernel_few_rows.mlir, the variant for at most 256 rows
// (schedules/dispatch.json): one CTA of 4 warps per 32 columns walks every
// row in each pass, 64 rows a step, 16-byte accesses where rows are aligned
// and plain scalar accesses for interior tiles where they are not
// (transform.tile.scalar_unaligned_rows). On an H100 machine (2026-12-06,
// full protocol): 22.7 against 29.7 us at 256 x 8191 (eager 19.2)
// for the default's zeroing, split moments and elementwise kernels.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.scalar_unaligned_rows %k 1 : !transform.any_op
    transform.yield
  }
}
