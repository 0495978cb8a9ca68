// The rows_1024 variant of soft_cross_entropy_backward's dispatch
// (schedules/dispatch.json: more than 1024 rows of up to 1024 columns): the
// default's 4 rows of up to 1024 columns per CTA of 8 warps, read once
// (transform.tile.single_pass) instead of twice. on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100): 20.5 against
// 22.3 us for the default at 3000 x 1000 (torch.compile 18.1, so still
// slower; 16 warps 21.5).
//
//   kbench compile tasks/soft_cross_entropy_backward --schedule tasks/soft_cross_entropy_backward/schedules/rows_1024.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BR = 4, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
