//===- ChunkCopy.h - 16-byte chunks of a tile, global to shared --*- C++
//-*-===//
//
// Private to lib/Conversion/TileToGPU. The staged copies of mma operands (the
// cp.async K loop of TensorCore.cpp, the operand prefetch of
// OperandPrefetch.cpp) move a tile row by row in 16-byte chunks (8 halves
// or 4 floats: getChunkElements), consecutive threads along a row. A tile may
// have leading unit dims (a batched matmul's [1, BM, BK]); its last two dims
// are the rows and the row elements. These helpers address one chunk and copy
// it: with cp.async when rows are 16-byte aligned (a chunk is then wholly
// inside or outside the memref), else with a chunk's masked element loads and
// one 16-byte shared store. Past the memref, or when the copy is out of range,
// a chunk is zeros.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_CHUNKCOPY_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_CHUNKCOPY_H

#include "GlobalAccess.h"

namespace kbench::gpu_lowering {

/// Where one chunk of a tile comes from.
struct ChunkSource {
  /// Global coordinates of the chunk's first element.
  llvm::SmallVector<mlir::Value> coords;
  /// Whether every dim but the innermost is inside the memref and the copy
  /// is in range (the innermost is checked per chunk or per element).
  mlir::Value rowValid;
};

/// The chunk at (row, col) of the tile of `view` that starts at `starts`
/// (one global coordinate per dim), `inRange` false meaning all zeros.
ChunkSource getChunkSource(KernelContext &ctx, mlir::OpBuilder &b,
                           const View &view, llvm::ArrayRef<mlir::Value> starts,
                           mlir::Value row, mlir::Value col,
                           mlir::Value inRange);

/// A 16-byte cp.async of the chunk to element `dst` of `buffer` (rows of a
/// multiple of a chunk's elements).
void emitChunkCopyAsync(KernelContext &ctx, mlir::OpBuilder &b,
                        const View &view, const ChunkSource &source,
                        mlir::Value buffer, mlir::Value dst);

/// A chunk's masked element loads and one 16-byte store to element `dst` of
/// `buffer` (any row length).
void emitChunkCopyByElements(KernelContext &ctx, mlir::OpBuilder &b,
                             const View &view, const ChunkSource &source,
                             mlir::Value buffer, mlir::Value dst);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_CHUNKCOPY_H
