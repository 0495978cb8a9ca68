// The TMA schedule matmul_bf16 shipped until 2026-12-07 (128x128x64 on one
// warpgroup, 3 stages, warp 0 issuing the copies, the epilogue in
// registers): the tests of the TMA ABI, warp specialization and persistent
// CTAs pin their descriptors, registers and PTX to it, whatever the task's
// own schedule becomes.
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
    // 4 elements per access: 16-byte stores of the f32 result. Row
    // alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
