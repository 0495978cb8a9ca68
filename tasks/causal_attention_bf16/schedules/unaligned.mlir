// The attention tasks' schedule for head dims that are not a multiple of 8
// (variant 'any' of schedules/dispatch.json; only the check shape D = 67
// runs it): the default's tiles, warps and wgmma without the key loop's
// cp.async prefetch. Rows of 2-byte aligned D cannot take 16-byte copies,
// so the prefetch would copy element by element anyway; without it the
// bundle compiles about 0.15 s faster, which keeps the two-variant
// dispatch under a second. Never timed: every timed shape has D % 8 == 0.
//
//   kbench compile tasks/causal_attention_bf16 --schedule tasks/causal_attention_bf16/schedules/unaligned.mlir -o OUT

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 64} : !transform.any_op
    transform.tile.mma_impl %k wgmma : !transform.any_op
    transform.tile.vector_width %k 8 : !transform.any_op
    transform.tile.pipeline %k stages 1 : !transform.any_op
    transform.yield
  }
}
