//===- TmaStore.h - A staged epilogue written with TMA ----------*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.tma_store as a plan
// (which stores it marks, every legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_TMASTORE_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_TMASTORE_H

#include "KnobRules.h"

namespace kbench::transform {

/// The stores tma_store marks (1) or unmarks (0) in one kernel.
struct TmaStorePlan {
  tile::KernelOp kernel;
  llvm::SmallVector<tile::StoreOp> stores;
};

/// Checks `value` (0 or 1) and, for 1, that `kernel` has staged epilogue
/// stores and that each passes whyNotTmaStore (EpilogueRules.h); nothing is
/// edited.
std::optional<KnobFailure> planTmaStore(tile::KernelOp kernel, int64_t value,
                                        TmaStorePlan &plan);

/// Sets (1) or removes (0) tile.tma_store on the planned stores.
void applyTmaStore(TmaStorePlan &plan, int64_t value);

/// After any edit: every store that carries tile.tma_store must still pass
/// the rules (a later set_params may widen its tile past a box).
std::optional<KnobFailure> checkTmaStores(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_TMASTORE_H
