// A schedule with a typo: the op is set_param, not set_params.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_param %k {BM = 128} : !transform.any_op
    transform.yield
  }
}
