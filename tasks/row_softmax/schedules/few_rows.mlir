// Few-rows schedule of row_softmax: the default schedule with one row per CTA
// (BR = 1) instead of 2, for the shapes of schedules/dispatch.json below
// 8192 rows. With a few thousand rows, 2 rows per CTA leave too few CTAs to
// keep every SM's memory pipeline busy; one row per CTA gives 2 times as
// many. Measured on the H200 machine (2026-12-02, docs/results.md, "Few-row
// variants of layernorm and row_softmax as dispatch bundles").
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
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
