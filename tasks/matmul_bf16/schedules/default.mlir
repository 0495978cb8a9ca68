// Default schedule of matmul_bf16 (bf16 operands, tensor cores): a 128x128
// CTA tile with BK = 32 on 4 warps in a 2x2 grid, so each warp owns a 64x64
// accumulator (4x8 mma.sync.m16n8k16 tiles, 128 f32 registers per thread;
// 244 registers in all, no spills). On the H200 machine (2026-12-02) 4 warps
// took 396 us at 4096^3 against 628 us on 8 warps (docs/results.md).
// The operands are copied with cp.async, 3 stages deep, into XOR-swizzled
// shared memory (16 KB per stage, plus 16 KB for the register-staged version
// that runs when K % 8 != 0: 64 KB) and read with ldmatrix.x4. Grouped raster order keeps 8 rows of
// blocks sharing W tiles in L2.
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
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 32} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    // Three cp.async stages: the operands of step k + 2 are in flight while
    // step k computes (where K % 8 == 0; otherwise register staging).
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    // 4 elements per access: 16-byte stores of the f32 result, 8-byte
    // operand loads (8 would make the f32 stores 32 bytes, which the knob
    // rules refuse). Row alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
