// The one_tile variant of log_softmax's dispatch (schedules/dispatch.json:
// rows of 16385 to 32768 columns): one row per CTA of 32 warps in one tile,
// read once (transform.tile.single_pass): the row stays in registers (32
// values per thread, 64 registers, no spills; one CTA per SM) between the max
// and sum and the write. The two-pass default reads each row twice (the online
// max and sum, then x - (m + log l)), 1.5x the bytes of one pass. On the H200
// machine (2026-12-06): 271.8 against 383.1 us at 4096 x 32000. Wider rows
// (the heldout 512 x 50257) would take the kernel's two-pass loop over
// 32768-column tiles, 155.1 against the default's 98.4 us: hence the dispatch.
//
//   kbench compile tasks/log_softmax --schedule tasks/log_softmax/schedules/one_tile.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 32 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 32768} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
