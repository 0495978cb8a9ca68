// Search space of the attention tasks (docs/search.md, "The space"): the
// default space would tune the kernel's params on SIMT tile.mma and let the
// head-dim tile BD drop below the head dim (refused at run time by the
// `D <= BD` fact). This one keeps impl = mma_sync and BD = 128 and searches
// warps, query rows (BM) and keys per step (BN). The constraint bounds the
// f32 accumulators a thread holds, the output's BM x 128 and twice the
// scores' BM x BN (scores and probabilities), to 96 per thread: on the H200
// machine (2026-12-03) 128 x 32 on 8 warps (exactly 96) held 238 registers
// without spills and was the fastest point tried; 128 x 64 on 8 warps (128)
// spilled. The default schedule is the point num_warps 8, BM 128, BN 32.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["BM * 128 + 2 * BM * BN <= 96 * 32 * num_warps"]} {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %num_warps = transform.tune.knob<"num_warps"> options = [4, 8, 16] -> !transform.param<i64>
    transform.tile.set_num_warps %k %num_warps : !transform.any_op
    %BM = transform.tune.knob<"BM"> options = [32, 64, 128, 256] -> !transform.param<i64>
    %BN = transform.tune.knob<"BN"> options = [16, 32, 64, 128] -> !transform.param<i64>
    transform.tile.set_params %k {BM = %BM, BN = %BN} : !transform.any_op
    transform.tile.mma_impl %k mma_sync : !transform.any_op
    transform.yield
  }
}
