// Default schedule of add_rmsnorm_bf16: one row of up to 4096 columns per CTA
// of 8 warps, 16-byte accesses (vector_width 8: eight bf16 elements) when
// N % 8 == 0 (checked at run time by tile-to-gpu, masked scalar accesses
// otherwise), and transform.tile.single_pass: a row that fits one tile (the
// tune shape's 4096 columns) loads x and r once and keeps their sum in
// registers for the scaling; longer rows take the two passes.
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
    transform.tile.set_params %k {BR = 1, BN = 4096} : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
