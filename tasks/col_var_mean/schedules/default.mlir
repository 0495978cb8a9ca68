// Default schedule of col_var_mean, kernel by kernel (matched by name):
// @col_moments takes 32 columns per CTA of 4 warps, 32 rows a step and
// 16-byte accesses (vector_width 4 when N % 4 == 0, checked at run time by
// tile-to-gpu), and splits the rows across CTAs in chunks of 8 row tiles
// (transform.tile.split_reduction, docs/rewrites.md): one zeroing kernel
// clears the three sums before it, and each CTA adds its partial sums with
// tile.atomic_add, so the tune shape runs 8192 CTAs instead of 128 walking
// all 16384 rows. 32 rows a step keeps the three accumulators at 64
// registers a thread (64 rows: 122, and 5% slower at the same chunk on the
// H200 machine, 2026-12-03). @col_finish is elementwise over N (1024 columns per CTA of 4
// warps).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %moments = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %moments 4 : !transform.any_op
    transform.tile.set_params %moments {BR = 32, BN = 32} : !transform.any_op
    transform.tile.vector_width %moments 4 : !transform.any_op
    transform.tile.split_reduction %moments chunk 8 : !transform.any_op
    transform.yield
  }
}
