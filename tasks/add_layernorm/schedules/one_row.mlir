// The one_row variant of add_layernorm's dispatch (schedules/dispatch.json:
// rows of 1025 to 2048 columns): one row of 2048 columns per CTA of 4 warps,
// read once (transform.tile.single_pass: the sum x + r stays in registers
// from the mean to the write; 80 registers, no spills). On the H200 machine
// (2026-12-06): 131.8 against 147.0 us for the default at the tune shape
// 16384 x 2048, 96% of the copy floor (torch.compile 138.3 us); 2 rows on 8
// warps took 132.5, 4 rows on 16 warps 139.8, and the same tile without
// single_pass 142.8.
//
//   kbench compile tasks/add_layernorm --schedule tasks/add_layernorm/schedules/one_row.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BR = 1, BN = 2048} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.tile.single_pass %k 1 : !transform.any_op
    transform.yield
  }
}
