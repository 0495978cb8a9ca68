// transform.tile.split_reduction alone (chunk from a param), for
// split-reduction-tasks.test.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %chunk = transform.param.constant 8 : i64 -> !transform.param<i64>
    transform.tile.split_reduction %k chunk %chunk : !transform.any_op
    transform.yield
  }
}
