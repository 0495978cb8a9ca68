//===- Shuffle.h - Moving a scalar between the lanes of a warp --*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the scans (ScanLowering.cpp) and the
// reductions of 64-bit values (ReduceLowering.cpp), which the upstream
// subgroup-reduce lowering does not take.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_SHUFFLE_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_SHUFFLE_H

#include "mlir/IR/Builders.h"

namespace kbench::gpu_lowering {

/// `value` as lane `srcLane` (an index) of the warp holds it. Narrower
/// floats travel as f32 and narrower integers as i32 (both exact), 64-bit
/// integers, f64 and index as two 32-bit halves.
mlir::Value shuffleFrom(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, mlir::Value srcLane);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_SHUFFLE_H
