// Search space of batchnorm_backward (docs/search.md, "The space"), written because
// the moments kernel has a rule the default space cannot know: the first
// constraint keeps its 5 accumulators within 64 elements a thread (at
// 5 x 64 x 32 / 128 = 80, batchnorm_backward's moments kernel held 186
// registers and ran 7% slower than at 40 on the H200 machine, 2026-12-03).
// The statistics kernel @batchnorm_backward_moments: warps, rows and columns per step,
// access width, and whether its rows are split across CTAs
// (transform.tile.split_reduction with a chunk of row tiles, region 1 of
// "split_reduction"; region 0, one CTA walking every row of its columns, is
// the naive point and suits few rows, where the split's zeroing kernel and
// atomics cost more than they spread). The elementwise kernel @batchnorm_backward_dx:
// warps, rows and columns per CTA, access width. Both kernels: plain scalar
// accesses for unaligned rows (unaligned_rows, transform.tile.scalar_unaligned_rows;
// changes the code only where rows are not 16-byte aligned).
// The default schedule is this space's point moments_warps 1, BR 8, BN 32,
// moments_vw 1, split_reduction 1 with chunk 4, apply_warps 1, apply_BR 2,
// apply_BN 256, apply_vw 4, unaligned_rows 1: a live search's find.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["5 * BR * BN <= 64 * 32 * moments_warps", "apply_BR * apply_BN <= 64 * 32 * apply_warps"]} {
    %moments = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    %dx = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "batchnorm_backward_dx"} in %root
        : (!transform.any_op) -> !transform.any_op
    %mw = transform.tune.knob<"moments_warps"> options = [1, 2, 4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %moments %mw : !transform.any_op
    %br = transform.tune.knob<"BR"> options = [8, 16, 32, 64] -> !transform.param<i64>
    %bn = transform.tune.knob<"BN"> options = [32, 64, 128] -> !transform.param<i64>
    transform.tile.set_params %moments {BR = %br, BN = %bn} : !transform.any_op
    %mvw = transform.tune.knob<"moments_vw"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.vector_width %moments %mvw : !transform.any_op
    %chunk = transform.tune.knob<"chunk"> options = [2, 4, 8, 16, 32] -> !transform.param<i64>
    transform.tune.alternatives<"split_reduction"> {
      transform.yield
    }, {
      transform.tile.split_reduction %moments chunk %chunk : !transform.any_op
      transform.yield
    }
    %aw = transform.tune.knob<"apply_warps"> options = [1, 2, 4, 8, 16] -> !transform.param<i64>
    transform.tile.set_num_warps %dx %aw : !transform.any_op
    %apply_br = transform.tune.knob<"apply_BR"> options = [1, 2, 4] -> !transform.param<i64>
    %apply_bn = transform.tune.knob<"apply_BN"> options = [256, 512, 1024, 2048, 4096] -> !transform.param<i64>
    transform.tile.set_params %dx {BR = %apply_br, BN = %apply_bn} : !transform.any_op
    %avw = transform.tune.knob<"apply_vw"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.vector_width %dx %avw : !transform.any_op
    %kernels = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %unaligned = transform.tune.knob<"unaligned_rows"> options = [0, 1] -> !transform.param<i64>
    transform.tile.scalar_unaligned_rows %kernels %unaligned : !transform.any_op
    transform.yield
  }
}
