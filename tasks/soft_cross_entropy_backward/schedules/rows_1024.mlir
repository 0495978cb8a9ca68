// The rows_1024 variant of soft_cross_entropy_backward's dispatch
// (schedules/dispatch.json: more than 1024 rows of up to 1024 columns): 2 rows
// of up to 1024 columns per CTA of 8 warps, read once
// (transform.tile.single_pass) instead of twice, in 8-byte accesses (a row
// output of 2 elements takes vector_width 2 at most). On an H100 machine
// (2026-12-06, run 2026-12-06-batchnorm-h100, full protocol): 19.2 against
// 20.4 us for the earlier variant (4 rows per 8-warp CTA, read once) at
// 3000 x 1000 (torch.compile 18.2, so still slower); 2 rows on 4 warps took
// 20.4, 4 rows on 16 warps 21.8, 8 rows on 16 warps 24.5. The default, read
// twice, had taken 22.3 (run 2026-12-06-short-rows-h100).
//
//   kbench compile tasks/soft_cross_entropy_backward --schedule tasks/soft_cross_entropy_backward/schedules/rows_1024.mlir -o OUT
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
