// Default schedule of softmax_backward: one row of up to 1024 columns per CTA
// of 4 warps, 16-byte accesses (vector_width 4) when N % 4 == 0 (checked at
// run time by tile-to-gpu, masked scalar accesses otherwise), and
// transform.tile.single_pass: a row that fits one tile (N <= 1024) is loaded
// once and kept in registers through both passes; longer rows take the two
// passes. On the H200 machine (2026-12-03) this took 97.9 us at the tune
// shape 32768 x 1024 against 136.2 us for the earlier default (2 rows per
// CTA, two passes): 0.96x torch.compile instead of 0.69x, and it was the
// fastest of the variants measured at every timed shape (docs/results.md).
// transform.tile.cache_hints keeps the first pass's lines of longer rows in
// L2 for the second (evict_last, then evict_first): on an H100 machine
// (2026-12-06) 28.0 against 30.7 us at 1000 x 5000, the same time at the
// single-pass shapes.
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
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
