// Few-rows schedule of group_norm, for at most 512 (sample, group) rows of
// at least 2048 values (schedules/dispatch.json): one row per CTA of 8
// warps, walked 4096 values at a time. The default's 4 rows of 1024 values
// per 4-warp CTA gave 32 CTAs at B = 8, G = 16, D = 16385, each with 16 KB
// of loads in flight: 55.1 us against 20.3 us for torch.compile on an H100
// machine (2026-12-06, docs/results.md). One row per CTA gives 4x the CTAs
// and 4096 values a step keeps the bytes in flight per CTA: 18.7 us there
// (1.06x torch.compile). It loses where rows are many: 75.2 against 56.0 us
// at the tune shape's 8,192 rows, 23.7 against 12.5 us at 2,048 rows of
// 1000 values. Also measured: (1 row, 8192 values) 20.7 us and (2 rows,
// 4096 values) 30.4 us at B = 8, G = 16.
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
    transform.tile.set_params %k {BB = 1, BG = 1, BD = 4096} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
