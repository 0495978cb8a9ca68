// Search space of the attention tasks (docs/search.md, "The space"): the
// default space would tune the kernel's params on SIMT tile.mma and let the
// head-dim tile BD drop below the head dim (refused at run time by the
// `D <= BD` fact). This one keeps vector_width 8 and BD = 128 and searches
// the tensor-core impl (mma_sync with warp_split(rows), or wgmma), warps,
// query rows (BM), keys per step (BN) and the prefetch depth of the key
// loop (stages; 1 = no prefetch). Both impls need 16 rows of BM per warp
// (warp_split(rows) gives each warp 16-row slabs; wgmma gives each
// warpgroup of 4 warps 64-row tiles). mma_sync is picked before the tile
// sizes, so that the shared-memory estimate counts its bf16 buffers; wgmma
// between BM and BN, since its warpgroups need the larger BM first and the
// estimate of the SIMT staging (f32 buffers) would refuse 128 keys before.
// The second constraint bounds the f32 accumulators a thread holds, the
// output's BM x 128 and the scores' BM x BN, to 128: 128 x 128 on 8 warps
// (exactly 128) holds 234 registers without spills on wgmma, knowing
// D % 8 == 0 (a point that spills is dropped before any GPU time).
// fast_math (docs/schedules.md) is a knob of its own: fma and ex2.approx.ftz
// in the softmax; so is stage_barriers (the key loop's stages paced by
// mbarriers instead of a CTA barrier per step) and, on the wgmma branch,
// mma_overlap (the key loop rotated so the softmax overlaps the P V wgmma;
// schedules/overlap.mlir), overlap_copies (the next key and value copies
// issued while the scores' wgmma runs) and ping_pong (the two warpgroups
// taking turns on the tensor cores; only with stage_barriers 1 and
// num_warps 8, other points are refused before any GPU time). The default
// schedule is the point num_warps 8, BM 128, BN 128, stages 2, fast_math 1,
// stage_barriers 0, mma_overlap 0, overlap_copies 0, ping_pong 0, mma_impl
// wgmma (schedules/mma_sync.mlir is
// BM 128, BN 64 on mma_sync at 2 stages, without fast_math).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %root: !transform.any_op {transform.readonly})
      attributes {kbench.constraints = ["BM % (16 * num_warps) == 0",
                                        "BM * 128 + BM * BN <= 128 * 32 * num_warps"]} {
    %k = transform.structured.match ops{["tile.kernel"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %num_warps = transform.tune.knob<"num_warps"> options = [4, 8, 16] -> !transform.param<i64>
    transform.tile.set_num_warps %k %num_warps : !transform.any_op
    %BM = transform.tune.knob<"BM"> options = [64, 128, 256] -> !transform.param<i64>
    %BN = transform.tune.knob<"BN"> options = [16, 32, 64, 128] -> !transform.param<i64>
    %stages = transform.tune.knob<"stages"> options = [1, 2, 3] -> !transform.param<i64>
    %fast_math = transform.tune.knob<"fast_math"> options = [0, 1] -> !transform.param<i64>
    transform.tile.fast_math %k %fast_math : !transform.any_op
    %stage_barriers = transform.tune.knob<"stage_barriers"> options = [0, 1] -> !transform.param<i64>
    transform.tile.stage_barriers %k %stage_barriers : !transform.any_op
    %mma_overlap = transform.tune.knob<"mma_overlap"> options = [0, 1] -> !transform.param<i64>
    %overlap_copies = transform.tune.knob<"overlap_copies"> options = [0, 1] -> !transform.param<i64>
    %ping_pong = transform.tune.knob<"ping_pong"> options = [0, 1] -> !transform.param<i64>
    transform.tune.alternatives<"mma_impl"> {
      transform.tile.mma_impl %k mma_sync : !transform.any_op
      transform.tile.set_params %k {BM = %BM, BN = %BN} : !transform.any_op
      transform.tile.mma_warp_split %k rows : !transform.any_op
      transform.tile.vector_width %k 8 : !transform.any_op
      transform.tile.pipeline %k stages %stages : !transform.any_op
      transform.yield
    }, {
      transform.tile.set_params %k {BM = %BM} : !transform.any_op
      transform.tile.mma_impl %k wgmma : !transform.any_op
      transform.tile.set_params %k {BN = %BN} : !transform.any_op
      transform.tile.vector_width %k 8 : !transform.any_op
      transform.tile.pipeline %k stages %stages : !transform.any_op
      transform.tile.mma_overlap %k %mma_overlap : !transform.any_op
      transform.tile.overlap_copies %k %overlap_copies : !transform.any_op
      transform.tile.ping_pong %k %ping_pong : !transform.any_op
      transform.yield
    }
    transform.yield
  }
}
