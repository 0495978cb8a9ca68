//===- EpilogueRules.h - Which stores a staged epilogue takes ----*- C++
//-*-===//
//
// Shared by transform.tile.stage_epilogue (which marks the stores) and
// tile-to-gpu (StagedEpilogue.cpp, which lowers them), so that both apply one
// rule.
//
// A matmul's epilogue (bias, activation, cast, store) runs on the
// accumulator in the mma's fragment layout: every thread evaluates it for
// every accumulator it holds, unrolled, and stores short runs. A staged
// epilogue stores the accumulator to shared memory once and then evaluates
// the elementwise chain in a rolled loop, each thread taking one 16-byte run
// of the output per iteration (docs/gpu-lowering.md, "Staged epilogue").
// This header says which stores qualify: the stored tile is an elementwise
// chain over one tile that a tile.mma produced, whose other leaves are splat
// constants, broadcasts of vectors along a row or a column, and loads of
// tiles of the stored shape (a residual). The stored tile may also be such
// a chain with unit dims put in front of it by tile.expand_dims (a batched
// or split-K output, [1, BM, BN]): the chain itself is 2-D.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_EPILOGUERULES_H
#define KBENCH_CONVERSION_TILETOGPU_EPILOGUERULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// Unit attribute on a tile.store (set by transform.tile.stage_epilogue):
/// tile-to-gpu lowers it as a staged epilogue. tile-verify and the host
/// target ignore it.
inline constexpr const char *kStagedEpilogueAttrName = "tile.staged_epilogue";

/// The shape of a staged epilogue, read from the tile IR.
struct StagedEpilogue {
  /// The 2-D tile the chain computes (its last value, or the source
  /// itself): the stored tile, or what tile.expand_dims ops turned into it.
  mlir::Value stored;
  /// How many unit dims tile.expand_dims (dim 0) put in front of `stored`
  /// for the tile.store: 0 for a 2-D store.
  int64_t leadingUnitDims = 0;
  /// The tile the chain starts from: a tile.mma result, or the result of
  /// the loop that accumulates one.
  mlir::Value source;
  /// The chain, definitions before uses: elementwise arith/math ops on
  /// tiles (and the tile.convert_layout ops tile-assign-layouts put between
  /// them), all in the block of the store.
  llvm::SmallVector<mlir::Operation *> chain;
  /// Splat tile constants the chain reads (defined anywhere).
  llvm::SmallVector<mlir::arith::ConstantOp> constants;
  /// Broadcasts of a rank-1 tile into the chain: `dims [0]` (one value per
  /// column, a bias) or `dims [1]` (one value per row).
  llvm::SmallVector<tile::BroadcastOp> broadcasts;
  /// Loads of a tile of the stored shape (no squeeze) the chain reads: the
  /// staged loop loads each run of them itself.
  llvm::SmallVector<tile::LoadOp> loads;
};

/// The staged epilogue of `store`, or nullopt with the reason in `why`
/// (naming what disqualifies it and how to fix it).
std::optional<StagedEpilogue> getStagedEpilogue(tile::StoreOp store,
                                                std::string &why);

/// Unit attribute on a staged tile.store (set by transform.tile.tma_store):
/// one thread writes each phase of the evaluated tile from shared memory to
/// global memory with cp.async.bulk.tensor, through a tensor map of the
/// stored kernel argument, instead of every thread storing its runs.
inline constexpr const char *kTmaStoreAttrName = "tile.tma_store";

/// Bytes of a row one TMA store box covers: the box is [tile rows, 128 /
/// element bytes], unswizzled, and a phase of the staged epilogue is
/// written as consecutive boxes.
inline constexpr int64_t kTmaStoreBoxRowBytes = 128;

/// Why `store` cannot be written with TMA, or nullopt: it must be a staged
/// epilogue (tile.staged_epilogue), its view a tile.partition of a rank-2
/// kernel argument of f32, bf16 or f16, its tile at most 256 rows and a
/// whole number of boxes wide. The text names the value and the fix.
std::optional<std::string> whyNotTmaStore(tile::StoreOp store);

/// The box of the tensor map a tile.tma_store writes through: [tile rows,
/// kTmaStoreBoxRowBytes / element bytes], outermost first.
llvm::SmallVector<int64_t> getTmaStoreBox(tile::StoreOp store);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_EPILOGUERULES_H
