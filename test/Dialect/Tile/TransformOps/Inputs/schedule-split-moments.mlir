// transform.tile.split_reduction on col_var_mean's @col_moments alone (its
// @col_finish has no row loop), for split-reduction-tasks.test.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]}
        attributes{sym_name = "col_moments"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.split_reduction %k chunk 8 : !transform.any_op
    transform.yield
  }
}
