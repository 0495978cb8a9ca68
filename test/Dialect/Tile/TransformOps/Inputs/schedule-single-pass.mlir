// transform.tile.single_pass alone, for single-pass-tasks.test.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
