// Default schedule of col_sum: each CTA of 4 warps owns 32 columns (128-byte
// row segments) and sums a chunk of 4 row tiles of 64 rows
// (transform.tile.split_reduction chunk 4: the grid is column blocks x
// chunks, each CTA adds its partial sums into y with tile.atomic_add, and a
// zeroing kernel runs first). The tune shape 16384 x 4096 gets 128 x 64 =
// 8192 CTAs instead of 128 walking all 16384 rows. 16-byte accesses
// (vector_width 4) when N % 4 == 0 (checked at run time by tile-to-gpu,
// masked scalar loads otherwise). On the H200 machine (2026-12-03): 65.2 us
// against 160.4 us without the split (1.07x torch.compile instead of 0.44x);
// chunks of 8 and 16 row tiles took 67.9 and 70.5 us (docs/results.md).
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
