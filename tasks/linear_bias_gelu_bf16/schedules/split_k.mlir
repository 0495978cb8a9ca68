// Schedule of linear_bias_gelu_bf16's split-K kernels (kernel_split_k.mlir),
// for the shapes of schedules/dispatch.json (M < 128, K <= 8192):
// matmul_bf16's split_k.mlir, which took 19.9 against 52.0 us at M = 16 on
// the H200 machine (2026-12-06): the partial kernel on one warpgroup with
// impl = wgmma, 64 x 128 output tiles, K tiles of 64 in chunks of 512; the
// sum kernel, which here also adds the bias and applies gelu, reads the P
// partials of 16 x 256 outputs in 16-byte vectors. On an H100 machine
// (2026-12-06): 24.1 against 43.9 us for the cp.async default at
// 16 x 4096 x 4096 (torch.compile 99.7 us).
//
//   kbench compile tasks/linear_bias_gelu_bf16 -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_bias_gelu_bf16_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %partial 4 : !transform.any_op
    transform.tile.set_params %partial {BM = 64, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %partial wgmma : !transform.any_op
    transform.tile.pipeline %partial stages 3 : !transform.any_op
    transform.tile.vector_width %partial 4 : !transform.any_op
    %sum = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "linear_bias_gelu_bf16_sum"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %sum 4 : !transform.any_op
    transform.yield
  }
}
