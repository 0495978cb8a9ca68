//===- StageEpilogue.h - A matmul epilogue through smem ---------*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.stage_epilogue as a
// plan (which stores it marks, every legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGEEPILOGUE_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGEEPILOGUE_H

#include "KnobRules.h"

namespace kbench::transform {

/// The stores stage_epilogue marks in one kernel.
struct StageEpiloguePlan {
  tile::KernelOp kernel;
  /// tile.store ops of a matmul epilogue (EpilogueRules.h); empty when the
  /// value is 0.
  llvm::SmallVector<tile::StoreOp> stores;
};

/// Checks `value` (0 or 1) and, for 1, that `kernel` has a tile.store the
/// staged epilogue takes; nothing is edited.
std::optional<KnobFailure> planStageEpilogue(tile::KernelOp kernel,
                                             int64_t value,
                                             StageEpiloguePlan &plan);

/// Marks the planned stores with tile.staged_epilogue.
void applyStageEpilogue(StageEpiloguePlan &plan, int64_t value);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGEEPILOGUE_H
