//===- Persistent.h - Persistent CTAs ---------------------------*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.persistent as a plan
// (every legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_PERSISTENT_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_PERSISTENT_H

#include "KnobRules.h"

namespace kbench::transform {

/// What persistent does to one kernel.
struct PersistentPlan {
  tile::KernelOp kernel;
  bool persistent = false;
};

/// Checks `value` (0 or 1) and, for 1, the rules of PersistentRules.h;
/// nothing is edited.
std::optional<KnobFailure> planPersistent(tile::KernelOp kernel, int64_t value,
                                          PersistentPlan &plan);

/// Sets (1) or removes (0) tile.persistent on the kernel.
void applyPersistent(PersistentPlan &plan, int64_t value);

/// After any edit: a kernel that carries tile.persistent must still satisfy
/// the rules.
std::optional<KnobFailure> checkPersistent(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_PERSISTENT_H
