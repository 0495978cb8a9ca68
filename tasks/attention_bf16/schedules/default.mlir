// Default schedule of the attention tasks (bf16, tensor cores): 64 query
// rows and 64 keys per step on 8 warps, both tile.mma on impl = mma_sync
// (mma.sync m16n8k16 with f32 accumulators; each operand is staged from
// registers into XOR-swizzled shared memory and read back with ldmatrix).
// 255 registers and no spills; 64 query rows on 4 warps spill (444 bytes),
// 128 rows on 8 warps spill 100.
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
    transform.tile.set_params %k {BM = 64, BN = 64} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}
