// The short_rows variant of log_softmax_backward's dispatch
// (schedules/dispatch.json: rows of up to 1024 columns): one row of up to 1024
// columns per CTA of 4 warps, read once (transform.tile.single_pass; 48
// registers, no spills). on an H100 machine (2026-12-06, run 2026-12-06-log-softmax-backward-h100): 16.1 against 23.3 us for
// the same schedule on one warp at 3000 x 1000 (torch.compile 15.1; 2
// warps 16.6, two passes on 4 warps 16.7). transform.tile.cache_hints only
// changes the multi-pass fallback, which rows within the variant's bound
// never take; it is kept because the measured kernel had it. Wider rows go
// to wide_rows.mlir or the default.
//
//   kbench compile tasks/log_softmax_backward --schedule tasks/log_softmax_backward/schedules/short_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 1024} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.yield
  }
}
