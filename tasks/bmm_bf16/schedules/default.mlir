// The mma_sync schedule of bmm_bf16, used below N = 256 (schedules/
// dispatch.json runs schedules/wgmma.mlir from N = 256 up): 128 x 128
// output tiles and K tiles of 32 on 4 warps, impl = mma_sync (the balanced
// 2 x 2 warp grid, 128 f32 accumulators a thread: 244 registers). The K
// loop's operand loads go through tile.squeeze ([1, BM, BK] and [1, BK, BN]
// tiles to the mma's rank 2), which the tensor-core K loop takes as they
// are: both tiles copied with cp.async into four swizzled stage buffers,
// three steps ahead (w's KxN tile as rows of N, read with ldmatrix.trans).
//
// On the H200 machine (2026-12-04, docs/results.md): 18.3 us at the heldout
// 512 x 128 x 128 x 64 (cuBLAS's bmm 14.3 us with a bf16 result, 35.7 us
// cast to f32); 558.9 us at 64 x 1024^3, where the wgmma schedule takes
// 445.8 us. Stages mattered most when it was tuned (8 warps: 1106 us with
// 2 stages, 802 with 3, 703 with 4), then the grid order of the kernel
// (batch slowest: 660 us on 8 warps), then 4 warps.
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
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.yield
  }
}
