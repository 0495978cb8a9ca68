// The rows_1024 variant of rmsnorm_backward's dispatch (schedules/dispatch.json:
// rows of up to 1024 columns): one row per CTA of 4 warps, 16-byte accesses
// (vector_width 4), read once (transform.tile.single_pass). on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100):
// 14.2 against 16.3 us for short_rows.mlir (one warp on 512 columns) at
// 3000 x 1000 (torch.compile 15.5; 2 warps 15.2). Rows of 1025 to 2045
// columns keep short_rows.mlir.
//
//   kbench compile tasks/rmsnorm_backward --schedule tasks/rmsnorm_backward/schedules/rows_1024.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
