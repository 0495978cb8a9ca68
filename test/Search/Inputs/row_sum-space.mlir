// A small space of row_sum for the search tests: a knob per tile.* op, one
// structural choice (tune.alternatives) and a constraint between knobs.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["BR * num_warps <= 16"]} {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %w = transform.tune.knob<"num_warps"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.set_num_warps %k %w : !transform.any_op
    %br = transform.tune.knob<"BR"> options = [2, 4, 8] -> !transform.param<i64>
    transform.tile.set_params %k {BR = %br, BN = 256} : !transform.any_op
    %vw = transform.tune.alternatives<"access"> -> !transform.param<i64> {
      %one = transform.param.constant 1 : i64 -> !transform.param<i64>
      transform.yield %one : !transform.param<i64>
    }, {
      %four = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.yield %four : !transform.param<i64>
    }
    transform.tile.vector_width %k %vw : !transform.any_op
    transform.yield
  }
}
