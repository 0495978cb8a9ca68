// Many-columns schedule of col_cumsum, for the one-pass kernel
// (kernel_one_pass.mlir) at the shapes of schedules/dispatch.json from 4096
// columns up: 16 columns per CTA of one warp, walked 64 rows at a time. With
// that many columns there are CTAs enough, and one warp per CTA needs no
// shared memory or barrier in the scan. On the H200 machine (2026-12-03):
// 238.9 us at 4096 x 16384 against 275.7 us for 32 columns on 4 warps, but
// 137.3 against 90.2 us at 3000 x 1000. On an H100 machine (2026-12-06, tune
// shape): 64 rows a step 203.1 us against 258.4 for 32 (168 registers, no
// spills; twice the loads in flight per warp), 243.0 for 32 x 32 columns,
// 295.1 for 16 rows; 128 rows spill.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/many_columns.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.tile.set_params %k {BR = 64, BN = 16} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
