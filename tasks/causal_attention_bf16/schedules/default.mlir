// Default schedule of the attention tasks (bf16, tensor cores): 128 query
// rows and 128 keys per step on 8 warps, both tile.mma on impl = wgmma: two
// warpgroups of 64 query rows each issue wgmma.mma_async m64n128k16 for the
// scores and for the output. BN = 128 is set after mma_impl: the
// shared-memory estimate of the simt staging (f32 operands) would refuse it
// before. Two cp.async stages (three do not fit: 264,192 bytes), so the P V
// group is waited for in its own step (the deferred wait needs 3 stages).
// Compiled knowing D % 8 == 0 (schedules/dispatch.json): 234 registers (223
// causal), no spills, 164,848 bytes of shared memory.
//
// On an H100 machine (2026-12-07, docs/results.md, run
// 2026-12-07-attention-key-tiles-h100, side by side) at 128 x 4096 x 128:
// 2284.7 us against 2881.8 us for the 64-key, 3-stage schedule below (1.26x;
// 54.7 / 354.6 against 63.8 / 424.8 us at the heldout shapes); causal 1312.5
// against 1659.6 us (1.26x; 50.7 / 258.7 against 60.1 / 303.7 us). cudnn's
// scaled_dot_product_attention took 1805.7 and 994.2 us on the same machine
// (scripts/gpu-sdpa-bf16.py): 0.79x and 0.76x. The same run measured the
// 64-key schedule with 4 stages (the copies two steps ahead): 2692.2 and
// 1572.0 us, 6.6% and 5.3% faster than with 3, slower than 128 keys.
//
// Until then the default took 128 query rows and 64 keys per step on 8
// warps, both tile.mma on impl = wgmma: two
// warpgroups of 64 query rows each issue wgmma.mma_async m64n64k16 for the
// scores (Q K^T: the head dim, 128, staged as two 64-element blocks of
// rows of K) and m64n128k16 for the output (P V: V's key x head tile is a
// KxN B, staged N-major and read transposed). The query tile is staged once,
// before the key loop; tile.pipeline_stages = 3 on the key loop prefetches
// the key and value tiles with cp.async one step ahead into 1024-byte
// aligned stage buffers (fence.proxy.async, then one barrier per key tile)
// and leaves each step's P V wgmma group in flight until the next step's
// first wgmma waits (the deferred wait: the third stage keeps the buffers
// that group still reads from being overwritten);
// the bf16 probabilities stay in registers as the A of the second wgmma
// (their layout is the accumulator layout of a wgmma as wide as the key
// tile, which is wgmma's register fragment of A), so the loop's one barrier
// is its head's. The accumulators keep every row inside one warp (the
// wgmma D fragment), so the online softmax's row max and sum need no shared
// memory. set_params runs before mma_impl: wgmma on two warpgroups needs
// BM = 128. fast_math lets ptxas fuse the exponent's score * scale - max
// into one fma and makes each exp2 a bare ex2.approx.ftz (docs/schedules.md).
// Compiled knowing D % 8 == 0 (schedules/dispatch.json): 190 registers (196
// causal), no spills.
//
// On an H100 machine (2026-12-07, docs/results.md, run
// 2026-12-07-attention-fast-math-h100) at 128 x 4096 x 128: 2879.5 us with
// fast_math and the scale after the row max, 2921.1 with fast_math alone,
// 2932.3 without either (1.8% faster; 63.6 / 425.9 against 64.6 / 435.3 us
// at the heldout shapes); causal 1657.9 us against 1690.8 for the default
// on another H100 machine that day (run 2026-12-07-attention-ctas-h100,
// where the non-causal default measured 2933.5). cudnn's
// scaled_dot_product_attention took 1801.4 and 975.9 us on a third H100
// machine that day (scripts/gpu-sdpa-bf16.py): 0.63x and 0.59x. One 4-warp
// CTA of 64 query rows (two CTAs an SM, 151 registers, 83 KB each; run
// 2026-12-07-attention-ctas-h100) was 5% slower non-causal and 1.5% slower
// causal at the tune shape.
// transform.tile.mma_overlap (schedules/overlap.mlir: the softmax of
// key tile j during the P V wgmma of tile j - 1) was 7.3% slower for
// attention_bf16 on an H100 machine the same day (3096.9 against 2886.7
// us; run 2026-12-07-attention-overlap-h100).
//
// On an H100 machine (2026-12-06, docs/results.md, runs
// 2026-12-06-suite-h100 and -variants-h100, one machine, minutes apart) at
// 128 x 4096 x 128: 2957.9 us with 3 stages against 3099.4 us with 2 (4.6%
// faster; causal 1689.2 against 1747.1 us, 3.3%), and faster at both
// heldout shapes (64.9 / 438.6 against 67.2 / 447.0 us; causal 61.8 / 312.8
// against 63.2 / 317.1), so the default now takes 3 stages. Earlier numbers
// (2 stages unless said):
//
// On the H200 machine (2026-12-04, docs/results.md) at 128 x 4096 x 128,
// with the kernels masking only their boundary key tiles and exp2: 3220.8
// us for attention_bf16 and 1811.5 us for causal_attention_bf16. With
// math.exp, 3296.3 and 1853.7 us against 1827.0 / 1002.4 us for cudnn's
// scaled_dot_product_attention in the same run (0.55x and 0.54x; flash
// 3162.1 / 1737.2 us), so about 0.57x and 0.55x now; 128 x 128 tiles 1%
// faster, 3 stages within 1%. With masks on every key tile: 4099.7 and 2713.0 us
// (cudnn 1804.9 / 1035.0 us, 0.44x and 0.38x), and the numbers below. With the
// probabilities staged through shared memory (one barrier more per key
// tile) the same day: 4091.2 and 2820.4 us; with a third barrier 4220.3
// and 2884.3 us; the mma_sync schedule (schedules/mma_sync.mlir) 5290.7
// and 3650.5 us. Also measured: 1 stage (no prefetch) 12% and 10% slower,
// 3 stages 2% faster and 1% slower, 128 x 128 tiles (set after mma_impl;
// 72 and 92 spill stores) 6% faster (7% slower and 5% faster at the
// heldout shapes) and 2% slower, 64 x 64 tiles on 4 warps 5% and 1%
// slower (spilled). math.exp2 with log2(e) folded into the scale, one
// ex2.approx per score instead of libdevice's expf, was 7% and 14% slower
// (4374.7 and 3080.4 us in a separate run whose cudnn times were within 3%
// of these).
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
    transform.tile.set_params %k {BM = 128, BN = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.set_params %k {BN = 128} : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.pipeline %k stages 2 : !transform.any_op
    transform.tile.fast_math %k 1 : !transform.any_op
    transform.yield
  }
}
