// Default schedule of the attention tasks (bf16, tensor cores): 128 query
// rows and 32 keys per step on 8 warps, both tile.mma on impl = mma_sync
// (mma.sync m16n8k16 with f32 accumulators; the key and value tiles and the
// probabilities are staged from registers into XOR-swizzled shared memory
// and read back with ldmatrix, the query tile once before the key loop).
// 238 registers, no spills. On the H200 machine (2026-12-03,
// docs/results.md) it was the fastest of the tile variants tried: at
// 128 x 4096 x 128, 12091.7 us for attention_bf16 (64 x 64: 13956.8 us) and
// 6911.0 us for causal_attention_bf16 (64 x 64: 7777.9 us), 0.15x of cudnn's
// scaled_dot_product_attention timed on the same machine that day.
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
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 32} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}
