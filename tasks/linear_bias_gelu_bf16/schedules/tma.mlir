// TMA schedule of linear_bias_gelu_bf16: a 128x256x64 tile on two
// warpgroups (8 warps) with impl = wgmma and 4 pipeline stages whose
// operands are copied with TMA (transform.tile.operand_copies tma; see
// tasks/matmul_bf16/schedules/tma.mlir). On the H200 machine (2026-12-02,
// docs/results.md) it took 282 us at 4096^3 against 401 us for the default
// and 110 us at 3000x1000x777 against 124 us, but 125 us against 52 us at
// M = 16 (torch.compile there: 89 us), so the task's default,
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
    // checked at run time. The epilogue (bias, gelu, bf16 cast) runs on the
    // accumulator fragment in registers.
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.yield
  }
}
