//===- RowsPerCta.h - Several row tiles per CTA -----------------*- C++ -*-===//
//
// Private to the transform.tile.* ops: transform.tile.rows_per_cta as a plan
// (every legality check, no edit) and an apply, plus the rule on the coarser
// tile that checkKnobs re-runs after later knob edits.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_ROWSPERCTA_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_ROWSPERCTA_H

#include "KnobRules.h"

namespace kbench::transform {

/// Marks the loop over a CTA's row tiles.
inline constexpr const char *kRowsPerCtaAttrName = "tile.rows_per_cta";
/// The param that sizes the coarser tile the grid walks.
inline constexpr const char *kRowsPerCtaParam = "BRC";

/// What rows_per_cta found in one kernel.
struct RowsPerCtaPlan {
  tile::KernelOp kernel;
  tile::GridOp grid;
  tile::PartitionOp view;
  /// The view dim of the grid's first coordinate.
  int64_t dim = 0;
};

/// Checks that `kernel` can take `rows` row tiles per CTA; nothing is edited.
std::optional<KnobFailure> planRowsPerCta(tile::KernelOp kernel, int64_t rows,
                                          RowsPerCtaPlan &plan);

/// Grids over a partition `rows` times coarser along the grid's first dim and
/// loops over the CTA's row tiles around the rest of the kernel.
void applyRowsPerCta(RowsPerCtaPlan &plan, int64_t rows);

/// The coarser tile holds whole tiles (a multiple, at least two).
std::optional<KnobFailure> checkRowsPerCta(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_ROWSPERCTA_H
