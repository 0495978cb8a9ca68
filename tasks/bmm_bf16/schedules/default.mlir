// Default schedule of bmm_bf16 (tensor cores): 128 x 128 output tiles and
// K tiles of 32 on 8 warps, impl = mma_sync (the balanced 2 x 4 warp grid,
// 64 f32 accumulators a thread). The K loop's operand
// loads go through tile.squeeze, so it is not a K loop of the dedicated
// cp.async pipeline; tile.pipeline_stages = 3 makes it an operand prefetch
// instead (docs/gpu-lowering.md, "Operand prefetch"): both tiles copied
// with cp.async two steps ahead into three swizzled buffers each, one
// barrier per K step. Not yet timed on the H200 machine.
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
    transform.tile.set_params %k {BM = 128, BN = 128} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.yield
  }
}
