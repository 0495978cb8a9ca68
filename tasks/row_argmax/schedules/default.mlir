// Default schedule of row_argmax: 4 rows per CTA of 4 warps, one warp per
// row (the lanes' running max and index are combined with shuffles alone,
// no shared memory, once per row), walked 1024 columns at a time. The
// dispatch file runs many_rows.mlir (512 columns) or
// many_rows_unaligned.mlir (this one with scalar accesses for unaligned
// rows) instead. vector_width 2: the int64 output
// allows 16-byte accesses of at most 2 elements and the knob holds for every
// partition of the kernel, so x is read 8 bytes at a time (when N % 2 == 0,
// which tile-to-gpu checks at run time).
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
    transform.tile.set_params %k {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.yield
  }
}
