// Default schedule of col_sum: each CTA of 4 warps owns 32 columns (128-byte
// row segments) and walks them 64 rows at a time (16 elements per thread);
// the tune shape's 4096 columns give 128 CTAs for the H200's 132 SMs. 16-byte
// accesses (vector_width 4) when N % 4 == 0 (checked at run time by
// tile-to-gpu, masked scalar loads otherwise).
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
    transform.yield
  }
}
