//===- LayoutPlan.h - Which layout every tile value gets --------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the analysis behind
// tile-assign-layouts (AssignLayouts.cpp), which writes its answer into the
// tensor types. Nothing in the lowering reads it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUTPLAN_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUTPLAN_H

#include "Layout.h"

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/DenseMap.h"

namespace kbench::gpu_lowering {

/// Whether the layout of an axis-map op flows from its result to its input:
/// true when it creates axes whose size its consumers choose (a broadcast),
/// so only the result can know the layout and the input takes it restricted
/// to its own axes; false when the result's layout derives from the input's
/// (reduce, transpose, expand_dims).
bool layoutFollowsResult(tile::AxisMapOpInterface op);
/// For each input axis of `op`, the result axis that carries it (-1 if none):
/// the inverse of getResultAxisSources(), for Layout::takeAxes.
llvm::SmallVector<int64_t> inputAxesInResult(tile::AxisMapOpInterface op);

/// Which layout every tile value of a kernel gets. Values tied by elementwise
/// ops, loop-carried values and if results form classes that share one
/// layout; a class is pinned by a tile.mma accumulator, a reduction result or
/// a shape op, otherwise it takes the layout its broadcast consumers want,
/// otherwise the default blocked layout. What still disagrees becomes an
/// explicit tile.convert_layout.
class LayoutPlan {
public:
  LayoutPlan(tile::KernelOp kernel, int64_t numWarps, int64_t vectorWidth);
  /// The planned layout of tensor value `value`.
  Layout get(mlir::Value value) const;

private:
  int find(int x) const;
  void unite(mlir::Value a, mlir::Value b);
  int classOf(mlir::Value v);

  int64_t numWarps, vectorWidth;
  llvm::DenseMap<mlir::Value, int> ids;
  mutable llvm::SmallVector<int> parent;
  llvm::SmallVector<mlir::Value> members;
  llvm::DenseMap<int, Layout> layouts;
};

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUTPLAN_H
