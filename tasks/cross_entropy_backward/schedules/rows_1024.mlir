// The rows_1024 variant of cross_entropy_backward's dispatch
// (schedules/dispatch.json: more than 1024 rows of even length up to 1024):
// 2 rows of up to 1024 columns per CTA of 8 warps (4 warps a row), 8-byte
// accesses (vector_width 2: the i64 targets allow no more at 2 rows), read
// once (transform.tile.single_pass). on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100): 11.8 against 15.2 us for
// the default (4 rows per 4-warp CTA, two passes) at 3000 x 1000
// (torch.compile 13.1; 2 rows on 4 warps 13.2).
//
//   kbench compile tasks/cross_entropy_backward --schedule tasks/cross_entropy_backward/schedules/rows_1024.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 2, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 2 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
