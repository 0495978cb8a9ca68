// Default schedule of matmul_bf16 (bf16 operands, tensor cores): a 128x128
// CTA tile with BK = 64 on one warpgroup (4 warps), impl = wgmma: per k16
// step two wgmma.mma_async m64n128k16 read A and B from shared memory
// through matrix descriptors (128 f32 accumulators per thread, 217
// registers, no spills). The operands are copied with cp.async, 3 stages
// deep, into 128-byte-swizzled shared memory (32 KB per stage, 97 KB in all,
// so two CTAs share an SM); where K % 8 != 0 the same loop copies them with
// element loads instead. On the H200 machine (2026-12-02, docs/results.md)
// it took 300 us at 4096^3 against 396 us for the mma_sync schedule it
// replaced (4 warps, 128x128x32, 3 stages) and 103 / 52 us against 262 /
// 76 us at the heldout shapes. Grouped raster order keeps 8 rows of blocks
// sharing W tiles in L2.
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
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    // Three cp.async stages: the operands of steps k + 1 and k + 2 are in
    // flight while step k's wgmma group runs (and is waited for).
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // 4 elements per access: 16-byte stores of the f32 result. Row
    // alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
