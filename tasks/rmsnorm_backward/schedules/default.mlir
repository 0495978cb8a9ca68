// Schedule of rmsnorm_backward for rows of 2046 columns and more
// (schedules/dispatch.json; the tune shape 16384 x 4096 runs it): one row of
// up to 4096 columns per CTA of 4 warps, scalar accesses, two passes. Found by
// kbench search (default space, naive start, seed 1, one round of 64
// candidates on the H200 machine, 2026-12-03: candidate c0-83); under the full
// protocol it took 207.5 us at the tune shape against 312.6 us for the earlier
// hand-written default (4 rows of 1024 on 4 warps, vector_width 4): 0.89x
// torch.compile instead of 0.59x.
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
    transform.tile.set_params %k {BR = 1, BN = 4096} : !transform.any_op
    transform.tile.vector_width %k 1 : !transform.any_op
    transform.yield
  }
}
