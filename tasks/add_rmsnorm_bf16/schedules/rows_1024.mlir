// The rows_1024 variant of add_rmsnorm_bf16's dispatch (schedules/dispatch.json:
// rows of up to 1024 columns): one row per CTA of 4 warps, 16-byte accesses
// (vector_width 8), read once (transform.tile.single_pass). Four warps on a
// row keep more loads in flight than short_rows.mlir's one: on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100)
// 11.6 against 13.2 us at 3000 x 1000 (torch.compile 12.5; 2 warps 11.7).
// Rows of 1025 to 2045 columns keep short_rows.mlir (not measured with
// more warps).
//
//   kbench compile tasks/add_rmsnorm_bf16 --schedule tasks/add_rmsnorm_bf16/schedules/rows_1024.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
