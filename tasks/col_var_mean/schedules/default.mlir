// Default schedule of col_var_mean, both kernels alike: col_sum's (32 columns
// per CTA of 4 warps, 64 rows a step, 16-byte accesses with vector_width 4
// when N % 4 == 0, checked at run time by tile-to-gpu) and its split of the
// rows across CTAs in chunks of 4 row tiles (transform.tile.split_reduction,
// docs/rewrites.md): each kernel gets a zeroing kernel launched before it and
// adds its partial sums with tile.atomic_add, so the tune shape runs 8192
// CTAs per pass instead of 128 walking all 16384 rows.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.split_reduction %k chunk 4 : !transform.any_op
    transform.yield
  }
}
