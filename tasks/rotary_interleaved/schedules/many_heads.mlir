// rotary_interleaved's schedule for heads in multiples of 32 and heads wider
// than 64 (schedules/dispatch.json), rotary's many_heads: 1 token by 32 heads
// per CTA of 8 warps, so a CTA reads a token's whole row of heads. On an H100
// machine (2026-12-06, tune shape T = 16384, 32 heads of 128): 178.9 us
// against 192.7 us with the default (torch.compile 179.2); 1 by 16 heads on 4
// warps took 184.8, 2 tokens by 8 heads 193.0. The heldout shapes (8 and 40
// heads) stay on the default, as rotary's do.
//
//   kbench compile tasks/rotary_interleaved --schedule tasks/rotary_interleaved/schedules/many_heads.mlir -o OUT
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BT = 1, BNH = 32, BH = 128} : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
