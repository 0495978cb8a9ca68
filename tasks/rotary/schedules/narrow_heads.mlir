// The narrow_heads variant of rotary's dispatch (schedules/dispatch.json:
// heads of up to 64 columns): 1 token by 16 heads of up to 64 columns per CTA
// of 4 warps, the elements of the default's 1 by 8 heads of 128 without its
// empty half: at the heldout T = 4096, 8 heads of 64 the default's tiles are
// half padding (0.76x and 0.80x torch.compile on the H200 machine, 2026-12-06,
// 32-37% of the floor). On an H100 machine (2026-12-06): 10.5 against 13.6 us
// (torch.compile 10.2). Its kernel requires H <= BH, so it runs only inside
// the dispatch.
//
//   kbench compile tasks/rotary --dispatch tasks/rotary/schedules/dispatch.json -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 4 : !transform.any_op
    transform.tile.set_params %k {BT = 1, BNH = 16, BH = 64} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
