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
  /// One store per sum the row loop carries, in iter_arg order.
  llvm::SmallVector<tile::StoreOp> stores;
  /// The kernel argument each store writes, and the launches of the kernel.
  llvm::SmallVector<unsigned> outputArgs;
  llvm::SmallVector<tile::LaunchOp> launches;
};

/// Checks that `kernel` is a one-pass kernel whose row loop carries one or
/// more sums over row tiles, each stored once into its own output (all of
/// one type), with a grid that can take one more dim, and fills `plan`;
/// nothing is edited.
std::optional<KnobFailure> planSplitReduction(tile::KernelOp kernel,
                                              int64_t chunkTiles,
                                              SplitPlan &plan);

/// Rewrites the kernel: grid over chunks of `chunkTiles` row tiles, the row
/// loop over its chunk, tile.atomic_add as the combine, and one zeroing
/// kernel of every output launched before each launch of it.
void applySplitReduction(SplitPlan &plan, int64_t chunkTiles);

/// The chunk rule on every split row loop of `kernel`: the chunk param is a
/// multiple of the row tile size, so chunks tile the row.
std::optional<KnobFailure> checkSplitReduction(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_SPLITREDUCTION_H
