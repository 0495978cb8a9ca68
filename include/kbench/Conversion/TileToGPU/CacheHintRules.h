//===- CacheHintRules.h - Loads that take an L2 priority ---------*- C++
//-*-===//
//
// Shared by tile-to-gpu (the cache_hints knob, CacheHints.cpp emits the
// hinted loads) and the search's default spaces (RewriteProbes.h), so that
// the space offers transform.tile.cache_hints exactly where the lowering
// would hint a load.
//
// A kernel that walks a row in several passes reads each tile of it once per
// pass; between the passes every other CTA streams its own rows through L2,
// which by default evicts the first pass's lines before the second pass
// comes back for them. With the knob, a load whose tensor a later pass reads
// again asks L2 to keep its lines (evict_last), and the last pass's load of
// such a tensor lets them go first (evict_first). Every other access carries
// no hint: a tensor read once per CTA may still be shared across CTAs (a
// matmul operand, a layernorm weight), where evict_first would cost HBM
// reads.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_CACHEHINTRULES_H
#define KBENCH_CONVERSION_TILETOGPU_CACHEHINTRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

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

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_CACHEHINTRULES_H
