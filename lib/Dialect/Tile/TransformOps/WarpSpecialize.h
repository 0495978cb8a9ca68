//===- WarpSpecialize.h - A producer warpgroup for TMA copies ---*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.warp_specialize as a
// plan (every legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_WARPSPECIALIZE_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_WARPSPECIALIZE_H

#include "KnobRules.h"

namespace kbench::transform {

/// What warp_specialize does to one kernel.
struct WarpSpecializePlan {
  tile::KernelOp kernel;
  bool specialize = false;
};

/// Checks `value` (0 or 1) and, for 1, the rules of TmaRules.h
/// (whyNotWarpSpecialized); nothing is edited.
std::optional<KnobFailure> planWarpSpecialize(tile::KernelOp kernel,
                                              int64_t value,
                                              WarpSpecializePlan &plan);

/// Sets (1) or removes (0) tile.warp_specialized on the kernel.
void applyWarpSpecialize(WarpSpecializePlan &plan, int64_t value);

/// After any edit: a kernel that carries tile.warp_specialized must still
/// satisfy the rules (a later operand_copies, set_num_warps or rewrite may
/// break them).
std::optional<KnobFailure> checkWarpSpecialization(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_WARPSPECIALIZE_H
