//===- Knobs.h - The knobs tile-to-gpu reads --------------------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. The one place where the GPU lowering
// reads a kernel's knobs (num_warps, vector_width, group_m, min_ctas_per_sm,
// scalar_unaligned_rows, cache_hints, fast_math, mma_overlap,
// overlap_copies, stage_barriers, ping_pong),
// so that the layout assignment, the pipelining plan and the lowering agree.
// The values and their rules come from the kernel config
// (kbench/Support/KernelConfig.h, the one owner of every knob and sm_90a
// limit); this file only adapts it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

namespace kbench::gpu_lowering {

/// The knobs of one kernel as the lowering uses them.
struct KernelKnobs {
  int64_t numWarps = 4;
  int64_t vectorWidth = 1;
  int64_t groupM = 1;
  /// PTX .minnctapersm when above 1 (the kernel's min_ctas_per_sm).
  int64_t minCtasPerSm = 1;
  /// Rows found unaligned at run time take plain scalar accesses on
  /// interior tiles (MemoryLowering.cpp) instead of masked ones.
  bool scalarUnalignedRows = false;
  /// Interior global accesses carry L2 eviction priorities (CacheHints.h).
  bool cacheHints = false;
  /// f32 arithmetic may contract into fma and exp2 is ex2.approx.ftz
  /// (FastMath.h).
  bool fastMath = false;
  /// Loops of two tile.mma are rotated so that the softmax between them
  /// overlaps the tensor cores (MmaOverlapRules.h).
  bool mmaOverlap = false;
  /// overlap_copies: a prefetching loop issues its copies after the body's
  /// first wgmma group is committed (OperandPrefetch.cpp).
  bool overlapCopies = false;
  /// stage_barriers: a prefetching loop paces its stages with mbarriers
  /// instead of a CTA barrier per step (OperandPrefetch.cpp).
  bool stageBarriers = false;
  /// ping_pong: the two warpgroups of a loop paced by stage barriers take
  /// turns to issue its first wgmma group (OperandPrefetch.cpp).
  bool pingPong = false;
};

/// Reads and checks the knobs of `kernel` against the knob table; on failure
/// an error naming the knob and its allowed values has been emitted on the
/// kernel.
mlir::FailureOr<KernelKnobs> readKernelKnobs(tile::KernelOp kernel);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_KNOBS_H
