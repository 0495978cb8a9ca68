//===- SinglePass.h - The single-pass rewrite of row kernels ----*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.single_pass as a plan
// (the guarded fast path built beside the untouched kernel, every legality
// check run on it), a commit (the original passes move into the else
// branch) and the ways back (discard a plan, undo a commit), plus the
// held-tile register rule that checkKnobs re-runs after later knob edits.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SINGLEPASS_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SINGLEPASS_H

#include "KnobRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kbench::transform {

/// Marks the scf.if whose then branch is a single-pass fast path.
inline constexpr const char *kSinglePassAttrName = "tile.single_pass";

/// One kernel's rewrite in progress.
struct SinglePassPlan {
  tile::KernelOp kernel;
  /// The versioning scf.if, its then branch filled in.
  mlir::scf::IfOp ifOp;
  /// The ops computing its condition, in order.
  llvm::SmallVector<mlir::Operation *> guard;
  /// The passes and the ops after them, which commit moves into the else
  /// branch.
  llvm::SmallVector<mlir::Operation *> moved;
};

/// Builds the fast path of `kernel` next to its passes and checks it; on
/// failure nothing of it remains and the message says why. Without
/// `checkHeldTiles` the held-tile register rule is skipped: the rewrite's
/// structure alone, which holds at some tile sizes if it holds at one.
std::optional<KnobFailure> planSinglePass(tile::KernelOp kernel,
                                          SinglePassPlan &plan,
                                          bool checkHeldTiles = true);
/// Erases a plan that was not committed.
void discardSinglePass(SinglePassPlan &plan);
/// Moves the original passes into the else branch.
void commitSinglePass(SinglePassPlan &plan);
/// Moves them back and erases the fast path: the kernel as it was.
void undoSinglePass(SinglePassPlan &plan);

/// The held-tile rule on every single-pass fast path of `kernel`: the tiles
/// it keeps live across a row reduction fit the target's held-tile register
/// limit at the kernel's current tile sizes and num_warps.
std::optional<KnobFailure> checkSinglePass(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SINGLEPASS_H
