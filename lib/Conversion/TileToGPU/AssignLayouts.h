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
/// needs another layout than the value has. Fails, with an error on the
/// kernel, when a knob is out of range.
mlir::LogicalResult assignLayouts(tile::KernelOp kernel);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_ASSIGNLAYOUTS_H
