//===- SplitReduction.h - Split a row reduction across CTAs -----*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.split_reduction as a
// plan (every legality check, no edit) and an apply, plus the rule on the
// chunk size that checkKnobs re-runs after later knob edits.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SPLITREDUCTION_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SPLITREDUCTION_H

#include "KnobRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kbench::transform {

/// Marks the row loop of a kernel whose reduction is split across CTAs.
inline constexpr const char *kSplitReductionAttrName = "tile.split_reduction";
/// The param that sizes a chunk (column tiles x tile size, in elements).
inline constexpr const char *kSplitChunkParam = "BS";

/// What split_reduction found in one kernel.
struct SplitPlan {
  tile::KernelOp kernel;
  mlir::scf::ForOp loop;
  tile::PartitionOp rowView;
  unsigned rowDim = 0;
  tile::GridOp grid;
  /// The row view dim each grid coordinate indexes.
  llvm::SmallVector<int64_t> gridDims;
  tile::StoreOp store;
  /// The kernel argument the store writes, and the launches of the kernel.
  unsigned outputArg = 0;
  llvm::SmallVector<tile::LaunchOp> launches;
};

/// Checks that `kernel` is a one-pass sum over row tiles stored once, with a
/// grid that can take one more dim, and fills `plan`; nothing is edited.
std::optional<KnobFailure> planSplitReduction(tile::KernelOp kernel,
                                              int64_t chunkTiles,
                                              SplitPlan &plan);

/// Rewrites the kernel: grid over chunks of `chunkTiles` row tiles, the row
/// loop over its chunk, tile.atomic_add as the combine, and a zeroing kernel
/// launched before each launch of it.
void applySplitReduction(SplitPlan &plan, int64_t chunkTiles);

/// The chunk rule on every split row loop of `kernel`: the chunk param is a
/// multiple of the row tile size, so chunks tile the row.
std::optional<KnobFailure> checkSplitReduction(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SPLITREDUCTION_H
