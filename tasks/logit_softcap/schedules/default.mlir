// Default schedule of logit_softcap: one row of up to 2048 columns per CTA
// of 8 warps (8 elements per thread), with 16-byte accesses (vector_width 4)
// on interior tiles when N % 4 == 0, which tile-to-gpu checks at run time
// (masked scalar accesses otherwise). It was gelu_bias's 2 rows of 1024; on
// an H100 machine (2026-12-06) one row of 2048 took 362.5 against 369.4 us
// at the tune shape 4096 x 32000 and 355.9 against 356.3 us at 512 x 256000
// (torch.compile 343.9 and 344.1 us).
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
    transform.tile.set_params %k {BR = 1, BN = 2048} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
