// A schedule whose tiles need more shared memory than a CTA has.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 16 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 256} : !transform.any_op
    transform.yield
  }
}
