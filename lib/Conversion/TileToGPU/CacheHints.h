//===- CacheHints.h - L2 eviction priorities of global loads ----*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the cache_hints knob
// (transform.tile.cache_hints). A kernel that walks a row in several passes
// reads each tile of it once per pass; between the passes every other CTA
// streams its own rows through L2, which by default evicts the first pass's
// lines before the second pass comes back for them. With the knob, a load
// whose tensor a later pass reads again asks L2 to keep its lines
// (evict_last), and the last pass's load of such a tensor lets them go first
// (evict_first). Every other access carries no hint: a tensor read once per
// CTA may still be shared across CTAs (a matmul operand, a layernorm
// weight), where evict_first would cost HBM reads.
//
// The hints are PTX qualifiers (createpolicy.fractional and .L2::cache_hint)
// that neither LLVM IR nor the NVVM dialect of MLIR 22 can express on a plain
// load, so a hinted load is inline PTX; only whole, aligned runs of 4, 8 or
// 16 bytes take it (the interior fast path), masked runs keep plain masked
// loads.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_CACHEHINTS_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_CACHEHINTS_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace kbench::gpu_lowering {

/// The L2 eviction priority a global load asks for.
enum class L2Priority {
  EvictLast,  ///< a later pass reads the tensor again: keep its lines
  EvictFirst, ///< the last pass reading a tensor read before: drop them first
};

/// The priority of every tile.load of `kernel` that gets one: a load is
/// EvictLast when an op after it (in its block or an enclosing one inside
/// the kernel) loads from the same memref, EvictFirst when it is not and an
/// op before it does. Loads of a memref read in one place get none.
llvm::DenseMap<mlir::Operation *, L2Priority>
planCacheHints(tile::KernelOp kernel);

/// A load of `runType` (4, 8 or 16 bytes) from element `coords` of the
/// row-major global tensor at `pointer` with extents `dims`, with L2
/// priority `priority`: inline PTX `ld.global` with `.L2::cache_hint`. The
/// run must start `alignment` bytes aligned (0: only the element's own).
/// Returns null when the run cannot take it (size or alignment), for the
/// caller to emit a plain load.
mlir::Value emitHintedLoad(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::VectorType runType, mlir::Value pointer,
                           llvm::ArrayRef<mlir::Value> dims,
                           llvm::ArrayRef<mlir::Value> coords,
                           int64_t alignment, L2Priority priority);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_CACHEHINTS_H
