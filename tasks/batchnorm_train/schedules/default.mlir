// Default schedule of batchnorm_train, kernel by kernel (matched by name),
// the point a live search of the task's space (schedules/space.mlir) found
// from the naive start (docs/search.md): the statistics kernel takes 32
// columns per one-warp CTA, 16 rows a step with scalar accesses, and splits
// the rows across CTAs in chunks of 4 row tiles (transform.tile.split_reduction:
// one zeroing kernel clears the three sums before it, partial sums added
// with tile.atomic_add; 16,384 CTAs at the tune shape 8192 x 4096); the
// elementwise kernel takes 4 rows of 256 columns per one-warp CTA with
// 16-byte accesses, so each CTA turns the sums into a column's mean and
// rstd once for 4 rows instead of once per row. On an H100 machine
// (2026-12-06, run 2026-12-06-batchnorm-h100, full protocol) against the
// earlier default (4-warp statistics CTAs of 32 x 32 in chunks of 8, one
// row of 1024 columns per 4-warp elementwise CTA): 143.7 against 149.4 us at
// the tune shape (torch.compile 147.7) and 23.5 against 30.1 us at
// 3000 x 1000 (torch.compile 27.0, eager 25.0). vector_width 4 is checked at
// run time by tile-to-gpu (masked scalar accesses when N % 4 != 0).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %moments = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %moments 1 : !transform.any_op
    transform.tile.set_params %moments {BR = 16, BN = 32} : !transform.any_op
    transform.tile.vector_width %moments 1 : !transform.any_op
    transform.tile.split_reduction %moments chunk 4 : !transform.any_op
    %normalize = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_apply"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %normalize 1 : !transform.any_op
    transform.tile.set_params %normalize {BR = 4, BN = 256} : !transform.any_op
    transform.tile.vector_width %normalize 4 : !transform.any_op
    transform.yield
  }
}
