//===- CacheHints.h - L2 eviction priorities of global loads ----*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the hinted loads of the cache_hints
// knob (transform.tile.cache_hints). Which loads take which L2 priority, and
// why, is CacheHintRules.h.
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

#include "kbench/Conversion/TileToGPU/CacheHintRules.h"

#include "mlir/IR/Builders.h"

namespace kbench::gpu_lowering {

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
