// A schedule whose tile size breaks a shape rule of mixed-tiles-kernel.mlir:
// its arith.addf adds a [BM, BN] tile to a [BN, BM] tile, so BM = BN.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.tile.set_params %k {BM = 32, BN = 64} : !transform.any_op
    transform.yield
  }
}
