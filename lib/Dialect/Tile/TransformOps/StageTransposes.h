//===- StageTransposes.h - Store transposed tiles through smem --*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.stage_transposes as a
// plan (which stores it marks, every legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGETRANSPOSES_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGETRANSPOSES_H

#include "KnobRules.h"

namespace kbench::transform {

/// The stores stage_transposes marks in one kernel.
struct StageTransposesPlan {
  tile::KernelOp kernel;
  /// tile.store and tile.atomic_add ops whose tile comes from a
  /// tile.transpose; empty when the value is 0.
  llvm::SmallVector<mlir::Operation *> stores;
};

/// Checks `value` (0 or 1) and, for 1, that `kernel` stores a transposed
/// tile; nothing is edited.
std::optional<KnobFailure> planStageTransposes(tile::KernelOp kernel,
                                               int64_t value,
                                               StageTransposesPlan &plan);

/// Marks the planned stores with tile.stage_through_shared.
void applyStageTransposes(StageTransposesPlan &plan, int64_t value);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_STAGETRANSPOSES_H
