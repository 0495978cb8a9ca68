// TMA schedule of matmul_bf16: the default's 128x128x64 tile on one
// warpgroup with impl = wgmma and 3 pipeline stages, but the operands are
// copied with TMA (transform.tile.operand_copies tma): one thread issues one
// cp.async.bulk.tensor per operand tile and step (A through a 5-D view that
// lands its rows in wgmma's staged order) and mbarriers pace the copies
// against the wgmma groups, with no CTA barrier in the K loop. Tensor maps
// are kernel params the runner encodes (docs/bundle.md). On the H200 machine
// (2026-12-02, docs/results.md) it took 222 us at 4096^3 against 301 us for
// the default (cuBLAS bf16: 234 us with an f32 result, 176 us with a bf16
// result) and 104 us at 3000x1000x777 (K % 8 != 0: the element-load
// fallback) against 105 us, but 96 us against 52 us at M = 16, so the task's
// default, schedules/dispatch.json, uses it from M = 128 up and default.mlir
// below. Since 2026-12-07 the epilogue is staged through shared memory and a
// producer warpgroup issues the copies: on an H100 machine 218.9 against
// 239.0 us at 4096^3 and 97.6 against 120.5 us at 3000x1000x777 for the
// schedule without them (docs/gpu-lowering.md, "Warp specialization"), and
// 1,570 lines of PTX instead of 3,937: 0.72 s instead of 1.6 s to compile
// this schedule alone (median of 3, the 2-core CPU machine, uncached).
//
//   kbench compile tasks/matmul_bf16 --schedule tasks/matmul_bf16/schedules/tma.mlir -o OUT

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    // Three stages, filled by TMA: the copies of step k + 2 are issued once
    // step k - 1's wgmma group is done.
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // The epilogue in a rolled loop over 16-byte runs of the accumulator
    // staged in the stage buffers, instead of unrolled over the fragment.
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    // A producer warpgroup issues the copies (setmaxnreg): the consumers no
    // longer stop for them, nor for the element copies where K % 8 != 0.
    transform.tile.warp_specialize %k 1 : !transform.any_op
    // 4 elements per access: 16-byte stores of the f32 result. Row
    // alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
