//===- ReduceKinds.h - What each tile::ReduceKind computes ------*- C++ -*-===//
//
// One definition of the combiners of tile.reduce and tile.scan, for both
// lowerings (TileToHost, TileToGPU): the arith op that combines two values,
// on scalars or vectors, and the kind's identity. Float max and min
// propagate NaN (arith.maximumf / minimumf); integers compare signed.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_REDUCEKINDS_H
#define KBENCH_DIALECT_TILE_IR_REDUCEKINDS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"

namespace kbench::tile {

/// lhs <kind> rhs. A null operand stands for the kind's identity (the other
/// is returned), so that a step with nothing to combine emits nothing.
mlir::Value combineReduceKind(mlir::OpBuilder &b, mlir::Location loc,
                              ReduceKind kind, mlir::Value lhs,
                              mlir::Value rhs);

/// The kind's identity for elements of `type`: -0.0 for a float sum
/// (x + -0.0 == x for every x, -0.0 included), 1 for a product, -inf / +inf
/// or the smallest / largest signed integer for max / min.
mlir::TypedAttr getReduceIdentity(ReduceKind kind, mlir::Type type);

} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_IR_REDUCEKINDS_H
