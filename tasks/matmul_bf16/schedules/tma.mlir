// TMA schedule of matmul_bf16: 128x256x64 tiles on two consumer
// warpgroups (8 warps) with impl = wgmma and 4 pipeline stages whose
// operands are copied with TMA (transform.tile.operand_copies tma: one
// cp.async.bulk.tensor per operand tile and step, A through a 5-D view that
// lands its rows in wgmma's staged order, mbarriers pacing the copies
// against the wgmma groups, no CTA barrier in the K loop) by a producer
// warpgroup of their own (transform.tile.warp_specialize), and the epilogue
// staged through shared memory (transform.tile.stage_epilogue). Tensor maps
// are kernel params the runner encodes (docs/bundle.md). On an H100 machine
// (2026-12-07, docs/results.md, run 2026-12-07-tensor-core-epilogues-h100)
// it took 192.9 us at 4096^3 and 84.1 us at 3000x1000x777 (K % 8 != 0: the
// element-copy fallback), against 219.4 and 98.0 us for the 4-warp 128x128
// tile with the same ops and 239.0 and 120.5 us for that tile with warp 0
// copying and the epilogue in registers (the schedule of 2026-12-02); cuBLAS
// bf16 in the same run: 230.3 and 73.4 us with an f32 result, 175.9 and 65.0
// us with a bf16 result. At M = 16 TMA was slower than cp.async (96 against
// 52 us on the H200 machine, 2026-12-02), so the task's default,
// schedules/dispatch.json, uses it from M = 128 up and split-K below.
//
//   kbench compile tasks/matmul_bf16 --schedule tasks/matmul_bf16/schedules/tma.mlir -o OUT

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 256, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    // Four stages, filled by TMA: the copies of step k + 3 are issued once
    // step k - 1's wgmma group is done.
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // The epilogue in a rolled loop over 16-byte runs of the accumulator
    // staged in the stage buffers, instead of unrolled over the fragment.
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // A producer warpgroup issues the copies and gives its registers to the
    // consumers (setmaxnreg): they no longer stop for the copies, nor for
    // the element copies where K % 8 != 0.
    transform.tile.warp_specialize %k 1 : !transform.any_op
    // 4 elements per access: 16-byte stores of the f32 result. Row
    // alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
