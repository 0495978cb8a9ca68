//===- RewriteProbes.h - Does a structural rewrite fit? ---------*- C++ -*-===//
//
// Questions the search asks before it offers a structural rewrite as a
// choice: a default space (docs/search.md) holds a rewrite only for kernels
// of the shape it rewrites, so that half of the space is not refused by the
// transform op's legality rules. Each probe leaves the module as it was.
// Light header: forward declarations only.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_REWRITEPROBES_H
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_REWRITEPROBES_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace kbench {

/// Whether `transform.tile.single_pass` rewrites the tile.kernel `kernel` at
/// some tile sizes: it has row passes that re-load a tile, and every other
/// legality rule holds but the held-tile register budget, which depends on
/// the tile sizes and num_warps a search chooses.
bool singlePassFitsSomeSizes(mlir::Operation *kernel);

/// Whether `transform.tile.split_reduction` rewrites the tile.kernel
/// `kernel` (a one-pass sum stored once, launched by its module); the chunk
/// size does not change the answer.
bool splitReductionFits(mlir::Operation *kernel);

/// Whether `transform.tile.stage_transposes` has something to stage in the
/// tile.kernel `kernel`: a store of a tile that a tile.transpose produced.
bool stageTransposesFits(mlir::Operation *kernel);

/// Whether `transform.tile.stage_epilogue` has a matmul epilogue to stage in
/// the tile.kernel `kernel` (EpilogueRules.h).
bool stageEpilogueFits(mlir::Operation *kernel);

/// Whether `transform.tile.mask_boundary_tiles` has a mask to move in the
/// tile.kernel `kernel`: a select on a comparison of lane indices that no
/// boundary branch written by hand encloses.
bool maskBoundaryTilesFits(mlir::Operation *kernel);

/// Whether `transform.tile.cache_hints` would hint a load of the tile.kernel
/// `kernel`: it reads some tensor in more than one pass
/// (gpu_lowering::planCacheHints).
bool cacheHintsFits(mlir::Operation *kernel);

/// Whether the tile.kernel `kernel` has a tile.mma whose types the tensor
/// cores of `impl` take (bf16 or f16 operands, f32 accumulator; f32 operands
/// as tf32 for mma_sync in a kernel that allows tf32): then
/// `transform.tile.mma_impl` has that choice to offer. `impl` is the name
/// the op takes ("mma_sync", "wgmma").
bool tensorCoreMmaFits(mlir::Operation *kernel,
                       llvm::StringRef impl = "mma_sync");

/// Whether the tile.kernel `kernel` has a K loop `transform.tile.pipeline`
/// can pipeline once its tile.mma is on tensor cores.
bool tensorCoreKLoopFits(mlir::Operation *kernel);

/// Whether `transform.tile.operand_copies tma` on the tile.kernel `kernel`
/// (all its K loops) fits some tile sizes once its tile.mma is on wgmma:
/// it has K loops, and each passes the size-independent TMA rules
/// (gpu_lowering::tmaCopiesFitSomeSizes).
bool tmaCopiesFit(mlir::Operation *kernel);

/// Whether `transform.tile.warp_specialize` could follow those TMA copies:
/// tmaCopiesFit with exactly one K loop, at the top level of the kernel
/// and only scalar code before it (gpu_lowering::whyNotProducerLoop).
bool warpSpecializeFits(mlir::Operation *kernel);

} // namespace kbench

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_REWRITEPROBES_H
