// TMA schedule of linear_bias_gelu_bf16: a 128x256x64 tile on two
// warpgroups (8 warps) with impl = wgmma and 4 pipeline stages whose
// operands are copied with TMA (transform.tile.operand_copies tma; see
// tasks/matmul_bf16/schedules/tma.mlir) by a producer warpgroup of their own
// (transform.tile.warp_specialize), the epilogue staged through shared
// memory (transform.tile.stage_epilogue). On the H200 machine (2026-12-05,
// docs/results.md, run 2026-12-05-variants) it took 201 us at 4096^3 and
// 88 us at 3000x1000x777, against 282 and 110 us for the same tile with the
// copies issued by warp 0 and the epilogue in registers (2026-12-02; 233 and
// 100 us with only the producer warpgroup, 248 and 90 us with only the
// staged epilogue, in the same 2026-12-05 run). At M = 16 TMA was slower
// (125 us against 52 us, 2026-12-02), so the task's default,
// schedules/dispatch.json, uses it from M = 128 up and default.mlir below.
//
//   kbench compile tasks/linear_bias_gelu_bf16 --schedule tasks/linear_bias_gelu_bf16/schedules/tma.mlir -o OUT

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 256, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.operand_copies %k tma : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // 16-byte (8 x bf16) loads and stores where the rows are aligned,
    // checked at run time.
    transform.tile.vector_width %k 8 : !transform.any_op
    // A producer warpgroup issues the copies and gives its registers to the
    // consumers (setmaxnreg): the kernel fits 168 registers at launch, the
    // consumers 232, where the kernel without it used 255.
    transform.tile.warp_specialize %k 1 : !transform.any_op
    // The epilogue (bias, gelu, bf16 cast) in a rolled loop over 16-byte
    // runs of the accumulator staged in the K loop's stage buffers, instead
    // of unrolled over the fragment (PTX 13,906 -> about 5,700 lines).
    transform.tile.stage_epilogue %k 1 : !transform.any_op
    transform.yield
  }
}
