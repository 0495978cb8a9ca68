// The short_rows variant of layernorm_backward's dispatch
// (schedules/dispatch.json: rows of up to 1024 columns): one row of up to 1024
// columns per CTA of 4 warps, read once (transform.tile.single_pass), the
// pattern of rmsnorm's and add_rmsnorm_bf16's short-rows variants. The
// default (one row of 2048 columns per 4-warp CTA, already single-pass)
// keeps the wider rows. On the H200 machine (2026-12-06) the same schedule on
// 2 warps took 15.4 against 21.9 us for the default at 3000 x 1000
// (torch.compile 13.8 us); on an H100 machine (2026-12-06, run 2026-12-06-short-rows-h100) 4 warps
// took 14.6 against 16.5 us for 2 (torch.compile 15.4). Rows wider than the
// tile would take the kernel's multi-pass loop.
//
//   kbench compile tasks/layernorm_backward --schedule tasks/layernorm_backward/schedules/short_rows.mlir -o OUT
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
