// Search space of col_argmax (kbench search, docs/search.md): the tiles,
// warps and vector widths of both kernels. The chunk of rows a CTA of
// @col_argmax_partial reduces stays BS = 256 (task.json derives the number
// of partials, P = ceildiv(M, 256), and the kernel requires P ==
// ceildiv(M, BS)), so every row tile BR offered divides it. The
// constraints keep at most 64 elements of a tile per thread, the budget of
// the default spaces.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["BR * BN <= 64 * 32 * partial_warps", "64 * BN <= 64 * 32 * finish_warps"]} {
    %partial = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_argmax_partial"} in %root
        : (!transform.any_op) -> !transform.any_op
    %finish = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_argmax_finish"} in %root
        : (!transform.any_op) -> !transform.any_op
    %pw = transform.tune.knob<"partial_warps"> options = [1, 2, 4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %partial %pw : !transform.any_op
    %br = transform.tune.knob<"BR"> options = [16, 32, 64, 128] -> !transform.param<i64>
    %bn = transform.tune.knob<"BN"> options = [16, 32, 64, 128] -> !transform.param<i64>
    transform.tile.set_params %partial {BR = %br, BN = %bn} : !transform.any_op
    %pvw = transform.tune.knob<"partial_vw"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.vector_width %partial %pvw : !transform.any_op
    %fw = transform.tune.knob<"finish_warps"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.set_num_warps %finish %fw : !transform.any_op
    transform.tile.set_params %finish {BN = %bn} : !transform.any_op
    %fvw = transform.tune.knob<"finish_vw"> options = [1, 2] -> !transform.param<i64>
    transform.tile.vector_width %finish %fvw : !transform.any_op
    transform.yield
  }
}
