// The wide_rows variant of log_softmax_backward's dispatch
// (schedules/dispatch.json: rows of 16385 to 32768 columns): one row per CTA
// of 16 warps walked 8192 columns a step, two passes over x and dy, with
// transform.tile.cache_hints: the first pass's loads ask L2 to keep the
// row's lines (evict_last) and the second pass's let them go first
// (evict_first), so the second read comes from L2. At 76 registers a thread
// one such CTA fits an SM, so about 132 rows (34 MB of x and dy) are in
// flight, within L2. On an H100 machine (2026-12-06) at 4096 x 32000: 627.2
// us with the hints against 789.9 without (torch.compile 595.0, which uses
// the same hints on one row per 32-warp CTA); the default's 8 warps on 2048
// columns took 863.3 with them (more rows in flight than L2 holds), 32 warps
// on 8192 columns 655.7, 16 warps on 4096 777.2. Holding the row in
// registers instead (single_pass, 32 warps on 32768 columns) spills: x and
// dy are 64 registers a thread on their own.
//
//   kbench compile tasks/log_softmax_backward --schedule tasks/log_softmax_backward/schedules/wide_rows.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 16 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 8192} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.cache_hints %k 1 : !transform.any_op
    transform.yield
  }
}
