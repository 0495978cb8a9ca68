// default.mlir with transform.tile.scalar_unaligned_rows on every kernel: where
// rows are not aligned for the vector width, interior tiles load and store
// plain scalars instead of masking every element. On an H100 machine
// (2026-12-06): 281.7 against 290.3 us at 4096 x 50257 with the earlier
// kernel (a reduction per tile); 268.0 with the lane-wise kernel
// (2026-12-07). The dispatch file runs it only for such rows.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    %kernels = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.scalar_unaligned_rows %kernels 1 : !transform.any_op
    transform.yield
  }
}
