// Default schedule of batchnorm_backward, kernel by kernel (matched by name):
// the statistics kernel takes 32 columns per CTA of 4 warps, 32 rows a step
// and vector_width 4, and splits the rows across CTAs in chunks of 8 row
// tiles (transform.tile.split_reduction: one zeroing kernel clears the five
// sums before it, partial sums added with tile.atomic_add; 4096 CTAs at the
// tune shape 8192 x 4096 instead of 128 walking every row); the dx kernel
// takes one row of 1024 columns per CTA of 4 warps with 16-byte accesses
// (4 rows a CTA hold 255 (spilling) registers a thread and ran 1.4x slower
// on the H200 machine, 2026-12-03). vector_width 4 is checked at run time by
// tile-to-gpu (masked scalar accesses when N % 4 != 0).
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
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %moments 4 : !transform.any_op
    transform.tile.set_params %moments {BR = 32, BN = 32} : !transform.any_op
    transform.tile.vector_width %moments 4 : !transform.any_op
    transform.tile.split_reduction %moments chunk 8 : !transform.any_op
    transform.tile.set_num_warps %dx 4 : !transform.any_op
    transform.tile.set_params %dx {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %dx 4 : !transform.any_op
    transform.yield
  }
}
