// Few-rows schedule of row_cumsum, for the shapes of schedules/dispatch.json
// (at most 1024 rows): one row per CTA of 8 warps, 4096 columns a step in
// 16-byte vectors. Each row is scanned by one CTA in column order, so with a
// few hundred long rows the default's 4 rows per CTA leave most SMs idle
// (64 CTAs at 256 x 32768) and each step's scan waits on the last one's
// carry; one row per CTA gives 256 CTAs, and a 4096-column step halves the
// carries a row waits on. On an H100 machine (2026-12-06, run
// 2026-12-06-batchnorm-h100, full protocol): 25.6 against 40.5 us for the
// default at 256 x 32768 (torch.compile 36.9); 1 row by 1024 columns on 4
// warps took 39.0, by 2048 on 8 warps 30.1, 2 rows by 2048 on 8 warps 32.2.
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/few_rows.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 4096} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
