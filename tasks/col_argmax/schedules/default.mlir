// Default schedule of col_argmax: 32 columns per CTA of 4 warps, walked 64
// rows at a time (the shape of col_sum's schedule: 128 CTAs at the tune
// shape for 132 SMs). vector_width 2: the int64 output allows 16-byte
// accesses of at most 2 elements and the knob holds for every partition of
// the kernel, so x is read 8 bytes at a time (when N % 2 == 0, which
// tile-to-gpu checks at run time). Of three schedules measured on the H200
// machine (2026-12-03, docs/results.md) it was the fastest at every timed
// shape: 244 us at the tune shape against 527 us for 32 x 32 on one warp.
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
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.yield
  }
}
