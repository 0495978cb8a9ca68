//===- AssignLayouts.h - Layout encodings for every tile value --*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the entry point of the
// tile-assign-layouts pass, which tile-to-gpu also calls on kernels that
// reach it without encodings.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_ASSIGNLAYOUTS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_ASSIGNLAYOUTS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

namespace kbench::gpu_lowering {

/// Whether some tile value of `kernel` has a layout encoding.
bool hasLayouts(tile::KernelOp kernel);

/// Gives every tile value of `kernel` (which has none yet) a `#tile.blocked`
/// encoding in its type and inserts a tile.convert_layout wherever a use
/// needs another layout than the value has. Fails, with an error, when a knob
/// is out of range or tiles flow through block arguments other than scf.for
/// iter_args.
mlir::LogicalResult assignLayouts(tile::KernelOp kernel);

/// Checks that every tile value of `kernel` (which has some encodings) has a
/// `#tile.blocked` encoding, the lowering's precondition; on failure an error
/// names the first op with a tile value without one.
mlir::LogicalResult verifyLayouts(tile::KernelOp kernel);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_ASSIGNLAYOUTS_H
