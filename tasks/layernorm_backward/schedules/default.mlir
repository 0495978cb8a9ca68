// Default schedule of layernorm_backward (rows of more than 1024 columns;
// schedules/dispatch.json sends shorter ones to short_rows.mlir): one row per
// CTA of 4 warps in tiles of 1024 columns, 8-byte accesses (vector_width 2,
// checked at run time by tile-to-gpu), the passes over a row with L2
// eviction hints (transform.tile.cache_hints: the loads a later pass repeats
// keep their lines) and masks only on boundary tiles
// (transform.tile.mask_boundary_tiles). A live search from the naive point
// found it (docs/search.md); on an H100 machine (2026-12-06, full protocol,
// run 2026-12-06-batchnorm-few-rows-h100): 132.5 against 135.5 us at the
// tune shape 16384 x 2048 (torch.compile 139.4) and 27.8 against 31.6 us at
// 1024 x 4099 (36.2) for the earlier default (one row of 2048 columns per
// 4-warp CTA, 16-byte accesses, read once with transform.tile.single_pass).
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
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.tile.mask_boundary_tiles %k 1 : !transform.any_op
    transform.yield
  }
}
