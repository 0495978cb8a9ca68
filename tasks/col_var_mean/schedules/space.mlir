// Search space of col_var_mean (docs/search.md, "The space"): its kernel file
// has two tile.kernels, so the default space does not cover it. The
// statistics kernel @col_moments: warps, rows and columns per step, access
// width and the chunk of its split across CTAs
// (transform.tile.split_reduction, always applied: without it a CTA walks
// every row); the finishing kernel's warps and columns per CTA for
// @col_finish. The first constraint keeps the 3 accumulators within 64
// elements a thread (at 5 x 64 x 32 / 128 = 80, batchnorm_backward's moments
// kernel held 186 registers and ran 7% slower than at 40 (chunks of 4 against
// 8) on the H200 machine, 2026-12-03). The default schedule is the point
// moments_warps 4, BR 32, BN 32, moments_vw 4, chunk 8 and its elementwise
// choices.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["3 * BR * BN <= 64 * 32 * moments_warps", "apply_BN <= 64 * 32 * apply_warps"]} {
    %moments = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    %finish = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_finish"} in %root
        : (!transform.any_op) -> !transform.any_op
    %mw = transform.tune.knob<"moments_warps"> options = [2, 4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %moments %mw : !transform.any_op
    %br = transform.tune.knob<"BR"> options = [8, 16, 32, 64] -> !transform.param<i64>
    %bn = transform.tune.knob<"BN"> options = [32, 64, 128] -> !transform.param<i64>
    transform.tile.set_params %moments {BR = %br, BN = %bn} : !transform.any_op
    %mvw = transform.tune.knob<"moments_vw"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.vector_width %moments %mvw : !transform.any_op
    %chunk = transform.tune.knob<"chunk"> options = [2, 4, 8, 16, 32] -> !transform.param<i64>
    transform.tile.split_reduction %moments chunk %chunk : !transform.any_op
    %aw = transform.tune.knob<"apply_warps"> options = [2, 4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %finish %aw : !transform.any_op
    %apply_bn = transform.tune.knob<"apply_BN"> options = [256, 512, 1024, 2048] -> !transform.param<i64>
    transform.tile.set_params %finish {BN = %apply_bn} : !transform.any_op
    %avw = transform.tune.knob<"apply_vw"> options = [1, 4] -> !transform.param<i64>
    transform.tile.vector_width %finish %avw : !transform.any_op
    transform.yield
  }
}
