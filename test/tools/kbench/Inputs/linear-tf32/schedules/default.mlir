// tf32 tensor cores for an f32 linear layer whose task opts into tf32
// ("allow_tf32": true): mma.sync.m16n8k8 over a 128x128 CTA tile with
// BK = 32 on 8 warps, the operands copied with cp.async 3 stages deep into
// swizzled shared memory (48 KB per stage) and rounded to tf32 after their
// ldmatrix.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.tile.set_num_warps %k 8 : !transform.any_op
    transform.tile.set_params %k {BM = 128, BN = 128, BK = 32} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.tile.pipeline %k stages 3 : !transform.any_op
    transform.tile.raster %k group_m 8 : !transform.any_op
    transform.tile.vector_width %k 4 : !transform.any_op
    transform.yield
  }
}
