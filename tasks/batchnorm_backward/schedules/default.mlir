// Default schedule of batchnorm_backward, kernel by kernel (matched by name),
// the point a live search of the task's space (schedules/space.mlir) found
// from the naive start (docs/search.md): the statistics kernel takes 32
// columns per one-warp CTA, 8 rows a step with scalar accesses, and splits
// the rows across CTAs in chunks of 4 row tiles (transform.tile.split_reduction:
// one zeroing kernel clears the five sums before it, partial sums added with
// tile.atomic_add); the dx kernel takes 2 rows of 256 columns per one-warp
// CTA with 16-byte accesses, so each CTA turns the sums into a column's
// factors once for 2 rows. Every kernel also sets
// transform.tile.scalar_unaligned_rows (plain scalar accesses for interior
// tiles where rows are not aligned for the vector width), as the measured
// bundle did. On an H100 machine (2026-12-06, run 2026-12-06-batchnorm-h100,
// full protocol) against the earlier default (4-warp statistics CTAs of
// 32 x 32 in chunks of 8, one row of 1024 columns per 4-warp dx CTA):
// 230.7 against 258.4 us at the tune shape 8192 x 4096 (torch.compile
// 290.3) and 34.6 against 50.8 us at 3000 x 1000 (torch.compile 49.5,
// eager 26.5: the shape stays launch-bound, 1.3x the faster baseline).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %moments = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %moments 1 : !transform.any_op
    transform.tile.set_params %moments {BR = 8, BN = 32} : !transform.any_op
    transform.tile.vector_width %moments 1 : !transform.any_op
    transform.tile.split_reduction %moments chunk 4 : !transform.any_op
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %dx 1 : !transform.any_op
    transform.tile.set_params %dx {BR = 2, BN = 256} : !transform.any_op
    transform.tile.vector_width %dx 4 : !transform.any_op
    %kernels = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.scalar_unaligned_rows %kernels 1 : !transform.any_op
    transform.yield
  }
}
