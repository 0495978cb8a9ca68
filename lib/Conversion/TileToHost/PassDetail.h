//===- PassDetail.h - Pieces of the tile-to-host pass -------------*- C++ -*-===//
//
// Private to lib/Conversion/TileToHost: the pass (TileToHost.cpp) checks a
// kernel, builds its host function (HostFunction.cpp) and rewrites the tile
// ops inside it (TileOpLowering.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOHOST_PASSDETAIL_H
#define KBENCH_LIB_CONVERSION_TILETOHOST_PASSDETAIL_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kbench::tile_to_host {

/// Emits an error on every op of `kernel` the host target cannot lower (and on
/// arguments the kernel ABI has no dtype for). Succeeds when there is none.
mlir::LogicalResult checkLowerable(tile::KernelOp kernel);

/// Creates, next to `kernel`, the host function
/// `func.func @<name>(!llvm.ptr, i64, i64, i64)`: it unpacks the argument
/// array following getKernelABI and runs a copy of the kernel body for every
/// block of the grid. The copy still holds tile ops (without tile.grid, whose
/// results became the loop ivs).
mlir::func::FuncOp buildHostFunction(tile::KernelOp kernel);

/// Patterns that rewrite the tile ops left in a host function into memref,
/// tensor and linalg ops. tile.partition is left for the caller to erase once
/// it has no users.
void populateTileOpLoweringPatterns(mlir::RewritePatternSet &patterns);

} // namespace kbench::tile_to_host

#endif // KBENCH_LIB_CONVERSION_TILETOHOST_PASSDETAIL_H
