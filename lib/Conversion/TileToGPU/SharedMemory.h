//===- SharedMemory.h - Tiles through shared memory -------------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: writing the per-thread elements of a
// tile into a shared-memory buffer and reading them back in another layout.
// Used by tile.convert_layout (MemoryLowering.cpp), the patterns whose
// natural result layout differs from the assigned one (ReduceLowering.cpp,
// MmaLowering.cpp) and the staging of tile.mma operands.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_SHAREDMEMORY_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_SHAREDMEMORY_H

#include "Patterns.h"

namespace kbench::gpu_lowering {

/// Per dim, t(d) * perThread(d): where this thread's first run of `layout`
/// starts (hoisted).
llvm::SmallVector<mlir::Value>
threadBase(KernelContext &ctx, mlir::OpBuilder &b, const Layout &layout);
/// Alignment in bytes of runs of `run` elements of `type` whose starts are
/// multiples of `run` in a 16-byte aligned buffer (null when no better than
/// one element).
mlir::IntegerAttr sharedAlignment(mlir::OpBuilder &b, int64_t run,
                                  mlir::Type type);
/// Tile coordinates of a run: `base` + `offsets` per dim.
llvm::SmallVector<mlir::Value> runCoords(KernelContext &ctx, mlir::OpBuilder &b,
                                         llvm::ArrayRef<mlir::Value> base,
                                         llvm::ArrayRef<int64_t> offsets,
                                         mlir::Location loc);

/// Writes the elements of `value` into `buffer` at `index(coords)`, one
/// vector.store per run when `innerContiguous` (the index grows by one along
/// the innermost dim), else one memref.store per element.
/// The address of element `element` (an index) of the shared-memory buffer
/// `buffer`, whose elements take `elementBytes`, as an LLVM pointer in the
/// shared address space: what mbarrier and TMA ops take.
mlir::Value sharedPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value buffer, mlir::Value element,
                          int64_t elementBytes);

/// Waits until the phase of the mbarrier at `barrier` (a shared pointer)
/// whose parity is `parity` (i32, 0 or 1) has completed: a try_wait loop
/// that may suspend the thread for up to a millisecond before each retry.
void emitMbarrierWaitParity(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value barrier, mlir::Value parity);

void storeToShared(KernelContext &ctx, mlir::OpBuilder &b,
                   const TileValue &value, mlir::Value buffer,
                   llvm::function_ref<mlir::Value(mlir::ValueRange)> index,
                   bool innerContiguous);

/// Reads a tile in `layout` from `buffer` at `index(coords)`.
mlir::Value
loadFromShared(KernelContext &ctx, mlir::OpBuilder &b, const Layout &layout,
               mlir::Type elementType, mlir::Value buffer,
               llvm::function_ref<mlir::Value(mlir::ValueRange)> index,
               bool innerContiguous);

/// `value` in layout `to`: itself when the layouts agree, else through a
/// shared-memory scratch buffer (fenced again after the read when `user`, the
/// op being lowered, is in a loop). With `padRows` the buffer's rows (the
/// innermost dim) are one element longer and every access is scalar: a
/// transposing conversion, whose one side walks a column, then hits 32
/// distinct banks instead of one.
TileValue convertLayout(KernelContext &ctx, mlir::OpBuilder &b,
                        const TileValue &value, const Layout &to,
                        mlir::Operation *user, bool padRows = false);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_SHAREDMEMORY_H
