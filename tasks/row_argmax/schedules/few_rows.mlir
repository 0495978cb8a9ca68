// Few-rows schedule of row_argmax: 2 rows per CTA of 8 warps, 2048 columns
// at a time, for the shapes of schedules/dispatch.json below 2048 rows. With
// a few hundred long rows, 4 rows per CTA leave too few CTAs to keep every
// SM's memory pipeline busy. Measured on the H200 machine (2026-12-03) with
// the earlier kernel (a reduction per tile) and 4 warps: at 512 x 32000,
// 29.9 us against 40.2 us for the default schedule; at 3000 x 1000 it is
// slower (11.8 against 9.5 us), hence the dispatch. With the lane-wise
// kernel on an H100 machine (2026-12-07), 8 warps: 27.3 us at 512 x 32000
// against 28.3 with 4 (torch.compile 29.1).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/few_rows.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 2, BN = 2048} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.yield
  }
}
