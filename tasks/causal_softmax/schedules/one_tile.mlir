// Candidate schedule of causal_softmax for rows of up to 4096 columns (the
// tune shape's 4,096 and the heldout 3,000), not yet measured on a GPU: one
// row per CTA of 8 warps in one tile, read once (transform.tile.single_pass,
// a fast path taken where the row fits the tile; 16 values per thread, 48
// registers, no spills). The default (2 rows of
// 1024 columns per 4-warp CTA, masks on the boundary tiles only) reads each
// row twice and took 71.7 us at 4096 x 4096 on an H100 machine (2026-12-06,
// 62% of the copy floor, 0.82x torch.compile).
//
//   kbench compile tasks/causal_softmax --schedule tasks/causal_softmax/schedules/one_tile.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 4096} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
