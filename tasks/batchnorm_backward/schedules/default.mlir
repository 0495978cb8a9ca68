// Default schedule of batchnorm_backward, kernel by kernel (matched by name):
// the four column sums take col_sum's tiles (32 columns per CTA of 4 warps,
// 64 rows a step, vector_width 4) and its split of the rows across CTAs in
// chunks of 4 row tiles (transform.tile.split_reduction: a zeroing kernel
// before each, partial sums added with tile.atomic_add; 4096 CTAs per sum at
// the tune shape 8192 x 4096 instead of 128 walking every row); the dx kernel
// takes 4 rows of 1024 columns per CTA of 4 warps. vector_width 4 is checked
// at run time by tile-to-gpu (masked scalar accesses when N % 4 != 0).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %mean = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_mean"} in %root
        : (!transform.any_op) -> !transform.any_op
    %var = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_var"} in %root
        : (!transform.any_op) -> !transform.any_op
    %mdy = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_mean_dy"} in %root
        : (!transform.any_op) -> !transform.any_op
    %mdyx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_mean_dy_xhat"} in %root
        : (!transform.any_op) -> !transform.any_op
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    %moments = transform.merge_handles %mean, %var, %mdy, %mdyx : !transform.any_op
    transform.tile.set_num_warps %moments 4 : !transform.any_op
    transform.tile.set_params %moments {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %moments 4 : !transform.any_op
    transform.tile.split_reduction %moments chunk 4 : !transform.any_op
    transform.tile.set_num_warps %dx 4 : !transform.any_op
    transform.tile.set_params %dx {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %dx 4 : !transform.any_op
    transform.yield
  }
}
