// Short-rows schedule of add_rmsnorm_bf16, for rows under 2046 columns
// (schedules/dispatch.json; the heldout 3000 x 1000 runs it): one row of up
// to 1024 columns per CTA of one warp, 16-byte accesses (vector_width 8),
// read once (transform.tile.single_pass); the row's sum of squares stays in
// the warp's shuffles, with no shared memory or barrier. The default's 4096
// columns on 8 warps left three quarters of the lanes masked at 1000
// columns: 25.8 us against 11.0 us for torch.compile on the H200 machine
// (2026-12-05). The same schedule is rmsnorm's for short rows (found by
// kbench search, 10.4 us at 3000 x 1000 there, 2026-12-03). Here it took
// 13.4 us at 3000 x 1000 against 12.3 us for torch.compile and 90.0 us for
// eager on an H100 machine (2026-12-06, docs/results.md).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/short_rows.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 1 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
