// Schedule of matmul_bf16's split-K kernels (kernel_split_k.mlir), for the
// shapes of schedules/dispatch.json (M < 128): the
// partial kernel on one warpgroup with impl = wgmma (m64n128k16; rows past M
// are zero padding), 64 x 128 output tiles, K tiles of 64 in chunks of 512
// (8 steps per CTA, 3 cp.async stages); the sum kernel reads the P partials
// of 16 x 256 outputs in 16-byte vectors. At M = 16, N = K = 4096 that is
// 32 x 8 = 256 partial CTAs where the one-kernel default has 32. On the H200
// machine (2026-12-06): 19.9 against 52.0 us at 16 x 4096 x 4096.
//
//   kbench compile tasks/matmul_bf16 \
//     --dispatch tasks/matmul_bf16/schedules/dispatch.json -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "matmul_bf16_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %partial 4 : !transform.any_op
    transform.tile.set_params %partial {BM = 64, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %partial wgmma : !transform.any_op
    transform.tile.pipeline %partial stages 3 : !transform.any_op
    transform.tile.vector_width %partial 4 : !transform.any_op
    %sum = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "matmul_bf16_sum"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.vector_width %sum 4 : !transform.any_op
    transform.yield
  }
}
