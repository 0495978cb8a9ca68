//===- LaneIndex.h - Index tiles as affine functions of their lanes -*- C++
//-*-===//
//
// A tile built from tile.iota, tile.splat of an index and integer arithmetic
// holds, at each lane, an affine function of the model's dims (block
// coordinates, loop ivs, shape symbols) and of the lane's own coordinates
// (dims numDims + axis). Masks compare two such tiles (`iota + j * BN < N`,
// `col <= row`); the C10 pad queries and C9's masked-tile rule turn such a
// comparison into constraints on the lanes where it holds.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_LANEINDEX_H
#define KBENCH_LIB_ANALYSIS_LANEINDEX_H

#include "kbench/Analysis/KernelModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace kbench::detail {

/// The lane-index functions of the kernel's index tiles; fill it with
/// `visit` on every op in program order.
class LaneIndex {
public:
  explicit LaneIndex(const KernelModel &model) : model(model) {}

  /// Records the lane function of `op`'s result when it has one.
  void visit(mlir::Operation *op);
  /// The lane function of `value`, or null.
  mlir::AffineExpr lookup(mlir::Value value) const {
    return exprs.lookup(value);
  }

private:
  const KernelModel &model;
  llvm::DenseMap<mlir::Value, mlir::AffineExpr> exprs;
};

/// The lanes where `cmp` (a comparison of two lane-index tiles with lane
/// functions `lhs` and `rhs`) is `condTrue`, as affine constraints over the
/// model's dims and the lane dims. Fails for `ne` (a disjunction).
mlir::LogicalResult
laneConstraints(mlir::arith::CmpIOp cmp, mlir::AffineExpr lhs,
                mlir::AffineExpr rhs, bool condTrue,
                llvm::SmallVectorImpl<AffineConstraint> &out);

/// Where the i1 `cond` is `value`, as a union of conjunctions of affine
/// constraints (`cases`): `cond` is an index comparison (lane tiles or
/// scalars, whose affine functions `lookup` gives; null when it has none),
/// arith.andi / arith.ori of such, or an i1 constant. Fails for other ops
/// and for a comparison whose case is `ne`.
mlir::LogicalResult conditionCases(
    mlir::Value cond, bool value,
    llvm::function_ref<mlir::AffineExpr(mlir::Value)> lookup,
    llvm::SmallVectorImpl<llvm::SmallVector<AffineConstraint>> &cases);

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_LANEINDEX_H
