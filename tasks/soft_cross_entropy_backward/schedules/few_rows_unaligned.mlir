// few_rows.mlir with transform.tile.scalar_unaligned_rows on every kernel:
// where rows are not aligned for the vector width, interior tiles load and
// store plain scalars instead of masking every element. On an H100 machine
// (2026-12-06): 184.0 against 206.0 us at 512 x 50257. The dispatch file runs
// it only for such rows.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 2, BN = 2048} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    %kernels = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.scalar_unaligned_rows %kernels 1 : !transform.any_op
    transform.yield
  }
}
