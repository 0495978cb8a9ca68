// Default schedule of bmm_bf16 (tensor cores): 128 x 128 output tiles and
// K tiles of 32 on 4 warps, impl = mma_sync (the balanced 2 x 2 warp grid,
// 128 f32 accumulators a thread: 255 registers, 20 bytes spilled). The K
// loop's operand loads go through tile.squeeze, so it is not a K loop of
// the dedicated cp.async pipeline; tile.pipeline_stages = 4 makes it an
// operand prefetch instead (docs/gpu-lowering.md, "Operand prefetch"): both
// tiles copied with cp.async three steps ahead into four swizzled buffers
// each, one barrier per K step.
//
// On the H200 machine (2026-12-04, docs/results.md) at 64 x 1024^3: 539.4 us,
// 0.72x cuBLAS's bmm with its bf16 result cast to f32 (386.3 us) and 0.36x
// the bf16-result bmm (195.5 us). Stages mattered most (8 warps: 1106 us
// with 2 stages, 802 with 3, 703 with 4), then the grid order of the kernel
// (batch slowest: 660 us on 8 warps), then 4 warps (539 us).
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
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.pipeline %k stages 4 : !transform.any_op
    transform.yield
  }
}
