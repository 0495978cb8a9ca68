// The one_tile variant of causal_softmax's dispatch (schedules/dispatch.json:
// rows of 2049 to 4096 columns): one row per CTA of 8 warps in one tile, read
// once (transform.tile.single_pass, a fast path taken where the row fits the
// tile; 16 values per thread, 48 registers, no spills). The default (2 rows of
// 1024 columns per 4-warp CTA, masks on the boundary tiles only) reads each
// row twice. On the H200 machine (2026-12-06): 41.7 against 54.1 us at
// 4096 x 4096, 35.0 against 35.5 us at 3000 x 3000, but 28.2 against 13.2 us
// at 2048 x 1000, where most of each CTA's tile is masked.
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
