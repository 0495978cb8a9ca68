// Default schedule of col_argmax. @col_argmax_partial: 32 columns per CTA of
// 4 warps, walked 64 rows at a time (col_sum's tiles: at 65536 x 1024, 64
// chunks x 32 column blocks = 2,048 CTAs of 16 row tiles each);
// vector_width 4, x read 16 bytes at a time (when N % 4 == 0, which
// tile-to-gpu checks at run time; the partials are f32 and i32).
// @col_argmax_finish: the P <= 64 partials of 32 columns in one tile;
// vector_width 2, the widest 16-byte access of its int64 output.
//
// The one-kernel form it replaced (one CTA per 32 columns walking all M
// rows; BR = 64, BN = 32, vector_width 2) ran on the H200 machine
// (2026-12-05, docs/results.md) at 241.6 us at the tune shape, 52.7 us at
// 3000 x 1000 and 894.3 us at 65536 x 1024 (torch.compile 287.0 / 32.3 /
// 551.2 us; eager 128.5 / 29.1 / 165.7 us). On an H100 machine
// (2026-12-06, both forms on one machine, minutes apart) the split took 97.9 /
// 14.5 / 101.2 us against 236.7 / 51.9 / 851.6 us for the one-kernel form
// (torch.compile 269.4 / 30.8 / 527.7 us).
//
// Apply without editing the kernel:
//   kbench-opt kernel.mlir \
//     --transform-preload-library="transform-library-paths=schedules/default.mlir" \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_argmax_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %partial 4 : !transform.any_op
    transform.tile.set_params %partial {BR = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %partial 4 : !transform.any_op
    %finish = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_argmax_finish"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %finish 4 : !transform.any_op
    transform.tile.set_params %finish {BP = 64, BN = 32} : !transform.any_op
    transform.tile.vector_width %finish 2 : !transform.any_op
    transform.yield
  }
}
