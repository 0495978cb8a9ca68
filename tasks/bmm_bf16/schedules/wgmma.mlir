// The wgmma schedule of bmm_bf16, used where N >= 256 (schedules/
// dispatch.json): 128 x 256 output tiles with BK = 64 on 8 warps, two
// warpgroups of 64 rows each, impl = wgmma: per k16 step each warpgroup
// issues one wgmma.mma_async m64n256k16 (128 f32 accumulators a thread, 244
// registers, no spills). w's KxN tile is staged N-major (four columns of 64
// N elements, 128-byte swizzle) and read transposed by the tensor cores; the
// K loop copies both squeezed [1, BM, BK] / [1, BK, BN] tiles with cp.async,
// 4 stages (48 KB each) with a wgmma group in flight; where a row is not
// 16-byte aligned the same loop copies with element loads.
//
// On the H200 machine (2026-12-04, docs/results.md) at 64 x 1024^3: 445.8 us
// against 558.9 us for the mma_sync schedule (schedules/default.mlir) and
// 415.5 us for cuBLAS's bmm with its bf16 result cast to f32 (0.93x; 201.1
// us, 0.45x, for the bf16 result alone); 727.6 against 903.7 us at the
// heldout 32 x 2000 x 500 x 777. At 512 x 128 x 128 x 64 the 256-wide tile
// is half empty: 27.9 against 18.3 us for the mma_sync schedule, which
// dispatch.json runs below N = 256.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/wgmma.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    // BK = 64 before the impl: wgmma stages rows of 64 K elements.
    transform.tile.set_params %k {BM = 128, BN = 256, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    // 4 elements per access: 16-byte stores of the f32 result. Row
    // alignment is checked at run time.
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
