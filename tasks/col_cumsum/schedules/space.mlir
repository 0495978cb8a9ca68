// Search space of col_cumsum (kbench search, docs/search.md): warps, row and
// column tiles and the access width, set on both kernels alike, as the
// default schedules do. The chunk of rows a CTA takes stays BS = 1024
// (task.json derives the number of chunks, P = ceildiv(M, 1024), and the
// kernels require P == ceildiv(M, BS)), so every row tile offered divides
// it. The constraints keep at most 64 elements of a tile per thread, the
// budget of the default spaces (the totals tile of @col_cumsum_apply is 64
// rows high).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["BR * BN <= 64 * 32 * num_warps", "64 * BN <= 64 * 32 * num_warps"]} {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %num_warps = transform.tune.knob<"num_warps"> options = [1, 2, 4, 8] -> !transform.param<i64>
    transform.tile.set_num_warps %k %num_warps : !transform.any_op
    %br = transform.tune.knob<"BR"> options = [16, 32, 64, 128] -> !transform.param<i64>
    %bn = transform.tune.knob<"BN"> options = [16, 32, 64, 128] -> !transform.param<i64>
    transform.tile.set_params %k {BR = %br, BN = %bn} : !transform.any_op
    %vw = transform.tune.knob<"vector_width"> options = [1, 2, 4] -> !transform.param<i64>
    transform.tile.vector_width %k %vw : !transform.any_op
    transform.yield
  }
}
