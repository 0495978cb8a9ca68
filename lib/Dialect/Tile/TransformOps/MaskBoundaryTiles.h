//===- MaskBoundaryTiles.h - Masks on the boundary tiles only ---*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.mask_boundary_tiles as
// a plan (which selects it moves and the scalar guard of each, every
// legality check, no edit) and an apply.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_MASKBOUNDARYTILES_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_MASKBOUNDARYTILES_H

#include "KnobRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <vector>

namespace kbench::transform {

/// Marks the scf.if ops the rewrite creates, so that a second application
/// is refused.
inline constexpr const char *kBoundaryMasksAttrName = "tile.boundary_masks";

/// The static size of one tile dim as the guard computes it: the
/// tile.tile_size of `view`'s dim `viewDim` when a param sizes it (set_params
/// may change it later), else the literal size, which no knob changes.
struct LaneDimSize {
  tile::PartitionOp view;
  int64_t viewDim = 0;
  int64_t literal = 0;
};

/// An index tile whose lane (i_0, ..., i_{r-1}) holds
/// `sum(terms) + constant + sum_d coeffs[d] * i_d`: tile.iota, tile.splat of
/// a scalar, splat index constants and arith.addi of those.
struct LaneIndexTile {
  llvm::SmallVector<mlir::Value> terms;
  int64_t constant = 0;
  llvm::SmallVector<int64_t> coeffs;
};

/// One arith.cmpi of two lane-index tiles, normalized to `lhs < rhs`
/// (`strict`) or `lhs <= rhs`.
struct LaneComparison {
  LaneIndexTile lhs, rhs;
  bool strict = true;
  bool isSigned = false;
  /// A compared tile, whose dims the guard's sizes follow.
  mlir::Value compared;
  /// The size of every dim of the compared tiles (filled once the chains
  /// are known, by one analysis of the kernel).
  llvm::SmallVector<LaneDimSize> sizes;
};

/// A chain of masking selects: each select's unmasked (true) operand is the
/// previous one's result, which has no other use. A lane keeps the first
/// select's true operand when every comparison holds there.
struct MaskChain {
  llvm::SmallVector<mlir::arith::SelectOp> selects;
  std::vector<LaneComparison> comparisons;
  /// The ops that compute the selects' conditions (arith.cmpi, arith.andi
  /// and the lane-index tiles), deduplicated.
  llvm::SmallVector<mlir::Operation *> conditionOps;
};

/// The chains mask_boundary_tiles moves in one kernel; empty when the value
/// is 0.
struct MaskBoundaryTilesPlan {
  tile::KernelOp kernel;
  std::vector<MaskChain> chains;
};

/// Checks `value` (0 or 1) and, for 1, finds every chain of selects on lane
/// comparisons; fails when there is none. Nothing is edited.
std::optional<KnobFailure> planMaskBoundaryTiles(tile::KernelOp kernel,
                                                 int64_t value,
                                                 MaskBoundaryTilesPlan &plan);

/// Moves each planned chain into the then branch of an scf.if on "some lane
/// fails a comparison"; the else branch yields the unmasked tile.
void applyMaskBoundaryTiles(MaskBoundaryTilesPlan &plan, int64_t value);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_MASKBOUNDARYTILES_H
