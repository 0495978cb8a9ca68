// A space of matmul_bf16 on wgmma where only the pipeline depth varies: the
// archive cells of search-cells.test.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    %stages = transform.tune.knob<"stages"> options = [1, 2, 3] -> !transform.param<i64>
    transform.tile.pipeline %k stages %stages : !transform.any_op
    transform.yield
  }
}
