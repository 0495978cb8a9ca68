// The wide_rows variant of log_softmax_backward's dispatch
// (schedules/dispatch.json: rows of 16385 to 32768 columns): one row per CTA
// of 16 warps walked 8192 columns a step, still two passes over x and dy.
// Fewer rows are in flight per SM than with the default's 8 warps on 2048
// columns; that more of a row's second read then hits L2 is the likely
// reason it is faster, not profiled. On an H100 machine
// (2026-12-06): 790.9 against 864.4 us for the default at 4096 x 32000
// (torch.compile 596.9 us: it still reads less). Holding the row in
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
    transform.yield
  }
}
