//===- TileInterfaces.cpp - Op interfaces of the tile dialect -------------===//
//
// The generated interface classes (TileInterfaces.td) and the ops' answers
// that are computed rather than read off an accessor: how each shape op maps
// its input's axes to its result's, and what each view scalar is in terms of
// the dim's extent and tile size. The view-access answers are one-liners in
// TileOps.td.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace kbench::tile;

#include "kbench/Dialect/Tile/IR/TileInterfaces.cpp.inc"

static int64_t rankOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getRank();
}

/// The axis sources of a map that drops input axis `dim` from a result of
/// rank `resultRank`: the axes after it shift down by one.
static SmallVector<int64_t> axisSourcesWithout(int64_t dim,
                                               int64_t resultRank) {
  SmallVector<int64_t> sources;
  for (int64_t axis = 0; axis < resultRank; ++axis)
    sources.push_back(axis >= dim ? axis + 1 : axis);
  return sources;
}

// `dims` lists the new result axes; the others take the input's in order.
SmallVector<int64_t> BroadcastOp::getResultAxisSources() {
  SmallVector<int64_t> sources;
  int64_t next = 0;
  for (int64_t axis = 0, e = rankOf(getResult()); axis < e; ++axis)
    sources.push_back(llvm::is_contained(getDims(), axis)
                          ? AxisMapOpInterface::kNewAxis
                          : next++);
  return sources;
}

SmallVector<int64_t> TransposeOp::getResultAxisSources() {
  return SmallVector<int64_t>(getPerm());
}

SmallVector<int64_t> ExpandDimsOp::getResultAxisSources() {
  SmallVector<int64_t> sources;
  int64_t dim = getDim();
  for (int64_t axis = 0, e = rankOf(getResult()); axis < e; ++axis)
    sources.push_back(axis == dim ? AxisMapOpInterface::kNewAxis
                                  : (axis > dim ? axis - 1 : axis));
  return sources;
}

bool ExpandDimsOp::insertsUnitAxes() { return true; }

// The dropped unit axis disappears; the axes after it shift down by one.
SmallVector<int64_t> SqueezeOp::getResultAxisSources() {
  return axisSourcesWithout(getDim(), rankOf(getResult()));
}

// The reduced axis disappears; the axes after it shift down by one.
SmallVector<int64_t> ReduceOp::getResultAxisSources() {
  return axisSourcesWithout(getDim(), rankOf(getResult()));
}

bool ReduceOp::copiesElements() { return false; }

// Every axis stays where it is; along the scanned one an element combines the
// elements before it, so the op does not only copy.
SmallVector<int64_t> ScanOp::getResultAxisSources() {
  return llvm::to_vector(llvm::seq<int64_t>(0, rankOf(getResult())));
}

bool ScanOp::copiesElements() { return false; }

// The view scalars: ceildiv(extent, tile), the extent, the tile size.
AffineExpr NumTilesOp::getValueExpr(AffineExpr extent, int64_t tileSize) {
  return extent.ceilDiv(tileSize);
}

AffineExpr ExtentOp::getValueExpr(AffineExpr extent, int64_t) {
  return extent;
}

AffineExpr TileSizeOp::getValueExpr(AffineExpr extent, int64_t tileSize) {
  return getAffineConstantExpr(tileSize, extent.getContext());
}
