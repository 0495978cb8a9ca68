// A schedule whose match finds no kernel: the tag is on no op.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match attributes{tile.tag = "gemm"} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BM = 128} : !transform.any_op
    transform.yield
  }
}
