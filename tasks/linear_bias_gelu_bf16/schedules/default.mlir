// Default schedule of linear_bias_gelu_bf16 (bf16 in and out, tensor cores):
// a 128x128 CTA tile with BK = 64 on two warpgroups (8 warps), impl = wgmma:
// each warpgroup owns 64 rows and issues one wgmma.mma_async m64n128k16 per
// k16 step, A and B read from shared memory through matrix descriptors (64
// f32 accumulators per thread, 161 registers, no spills). The operands are
// copied with cp.async, 4 stages deep, into 128-byte-swizzled shared memory
// (32 KB per stage); each step's wgmma group stays in flight while the next
// step's copies are issued. Where K % 8 != 0 the same loop copies them with
// element loads instead. On the H200 machine (2026-12-02, docs/results.md)
// it took 400 / 122 / 52 us at the tune and heldout shapes against 504 /
// 106 / 76 us for the mma_sync schedule it replaced (8 warps, 128x128x32,
// 3 stages); 128x256 tiles were faster at the tune shape (378 us) but
// twice as slow at M = 16. Grouped raster order keeps 8 rows of blocks
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
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // 16-byte (8 x bf16) loads and stores where the rows are aligned,
    // checked at run time. The epilogue (bias, gelu, bf16 cast) runs on the
    // accumulator fragment in registers.
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.yield
  }
}
