//===- Combiners.h - The combiners of tile.reduce and tile.scan -*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: one definition of what each
// tile::ReduceKind computes on scalars or per-thread vectors, for the
// reductions (ReduceLowering.cpp) and the scans (ScanLowering.cpp). Float
// max and min propagate NaN (arith.maximumf / minimumf); integers compare
// signed.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_COMBINERS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_COMBINERS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"

namespace kbench::gpu_lowering {

/// lhs <kind> rhs. A null operand stands for the kind's identity (the other
/// is returned), so that a level a layout does not have emits nothing.
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc,
                    tile::ReduceKind kind, mlir::Value lhs, mlir::Value rhs);

/// The kind's identity as a constant of `type`: -0.0 for a float sum
/// (x + -0.0 == x for every x), 1 for a product, -inf / +inf or the extreme
/// signed integers for max / min.
mlir::Value identity(mlir::OpBuilder &b, mlir::Location loc,
                     tile::ReduceKind kind, mlir::Type type);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_COMBINERS_H
