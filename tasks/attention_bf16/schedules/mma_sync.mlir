// The mma_sync schedule of the attention tasks (their default until
// 2026-12-04, when schedules/default.mlir moved to wgmma): 128 query
// rows and 64 keys per step on 8 warps, both tile.mma on impl = mma_sync
// (mma.sync m16n8k16 with f32 accumulators) with warp_split(rows): every
// warp owns 16 whole query rows of the scores and of the output, so the
// row max and sum of the online softmax stay inside a warp and the bf16
// probabilities feed the second mma from registers. tile.pipeline_stages = 2
// on the key loop prefetches the key and value tiles with cp.async one step
// ahead into double-buffered swizzled shared memory (one barrier per key
// tile); vector_width 8 loads the query tile in 16-byte accesses. The query
// tile is staged once, before the loop. mma_impl runs before set_params:
// the shared-memory budget counts what the chosen impl stages (simt would
// widen the bf16 tiles to f32). 255 registers, no spills, 96 KiB of
// shared memory.
//
// On the H200 machine (2026-12-03, docs/results.md) at 128 x 4096 x 128:
// 5373.5 us for attention_bf16 and 3622.6 us for causal_attention_bf16
// (0.34x and 0.29x of cudnn's scaled_dot_product_attention timed there the
// same day); 128 x 64 with 3 stages was 1% faster but spilled, 128 x 32
// tiles 6% slower. With the query tiles on grid x (2026-12-04): 5290.7 and
// 3650.5 us; 128 keys per step (160 KB of shared memory) spilled and was
// 29% and 17% slower.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/mma_sync.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 64} : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.mma_warp_split %k rows : !transform.any_op
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.yield
  }
}
