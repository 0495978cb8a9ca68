//===- Layout.h - Thread layouts of tiles in the SIMT lowering ---*- C++ -*-===//
//
// How one tile is spread over the threads of a CTA. The lowering uses a small
// closed family of "blocked" layouts (no layout algebra): along every tile dim
// a thread owns runs of `perThread` contiguous elements, the lanes of a warp
// and the warps of the CTA tile the dim with their own strides in the lane
// and warp ids, and the pattern repeats until the dim is covered.
//
//   coord(d) = (rep * threads(d) + t(d)) * perThread(d) + e
//   t(d)     = (lane / laneStride(d)) % lanes(d)
//            + lanes(d) * ((warp / warpStride(d)) % warps(d))
//
// Lanes or warps that no dim uses hold replicas. Dropping a dim (the result
// of a reduction, the input of a broadcast) keeps the thread mapping of the
// others, so a reduced row is already where a broadcast back needs it.
//
// A thread keeps its elements in one flat `vector<N x T>`, row-major over the
// per-dim positions p(d) in [0, size(d) / threads(d)).
//
// In the IR a layout is the `#tile.blocked` encoding of a tensor type
// (TileAttrs.td), which has the same fields minus the sizes (the shape);
// getEncoding and getLayout translate.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUT_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUT_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// The distribution of one tile dim.
struct DimLayout {
  int64_t size = 1;
  int64_t perThread = 1;
  int64_t lanes = 1;
  int64_t laneStride = 1;
  int64_t warps = 1;
  int64_t warpStride = 1;

  int64_t threads() const { return lanes * warps; }
  /// Elements of this dim one thread owns.
  int64_t count() const { return size / threads(); }
  /// Tile coordinate of per-thread position `p` for thread coordinate 0.
  int64_t offset(int64_t p) const {
    return (p / perThread) * threads() * perThread + p % perThread;
  }
  bool operator==(const DimLayout &o) const {
    return size == o.size && perThread == o.perThread && lanes == o.lanes &&
           laneStride == o.laneStride && warps == o.warps &&
           warpStride == o.warpStride;
  }
};

/// The per-dim positions of flat index `flat` in a thread's vector whose
/// row-major shape is `counts` (Layout::counts()).
llvm::SmallVector<int64_t> layoutPositions(int64_t flat,
                                           llvm::ArrayRef<int64_t> counts);

/// A blocked layout of a rank-N tile over `numWarps` warps of 32 lanes.
struct Layout {
  llvm::SmallVector<DimLayout, 2> dims;
  int64_t numWarps = 1;

  int64_t rank() const { return dims.size(); }
  /// Elements one thread owns (the length of its vector).
  int64_t numElements() const;
  /// Per-thread counts per dim (the row-major shape of the flat vector).
  llvm::SmallVector<int64_t> counts() const;
  /// Row-major strides of `counts()`.
  llvm::SmallVector<int64_t> countStrides() const;
  /// Contiguous elements per run along the innermost dim (1 for rank 0).
  int64_t innerPerThread() const {
    return dims.empty() ? 1 : dims.back().perThread;
  }
  /// Calls `fn(flat, offsets)` for every run of `innerPerThread()` contiguous
  /// innermost elements a thread owns: `flat` is the run's first position in
  /// the thread's vector and `offsets` the tile coordinates of its first
  /// element for thread coordinate 0 (a thread adds t(d) * perThread(d)).
  void forEachChunk(
      llvm::function_ref<void(int64_t, llvm::ArrayRef<int64_t>)> fn) const;
  /// Lane-id bits and warp-id bits that select a distinct element; the others
  /// select replicas.
  int64_t usedLaneMask() const;
  int64_t usedWarpMask() const;

  /// The layout without `dims` (sorted, unique): the same threads own the
  /// remaining coordinates.
  Layout drop(llvm::ArrayRef<int64_t> droppedDims) const;
  /// Result dim `i` is this layout's dim `perm[i]`.
  Layout permute(llvm::ArrayRef<int64_t> perm) const;
  /// A unit dim inserted at `dim`.
  Layout insertUnitDim(int64_t dim) const;
  /// Result dim `i` is this layout's dim `axes[i]`, or a unit dim where
  /// `axes[i]` is negative: drop, permute and insertUnitDim in one, for the
  /// axis maps of tile::AxisMapOpInterface.
  Layout takeAxes(llvm::ArrayRef<int64_t> axes) const;

  bool operator==(const Layout &o) const {
    return numWarps == o.numWarps && dims == o.dims;
  }
  bool operator!=(const Layout &o) const { return !(*this == o); }

  /// `#blocked<[sizes] per_thread [..] lanes [..] warps [..]>`, for messages
  /// and the `tile.layout` debug attribute.
  std::string str() const;
};

/// The default layout of a tile: `vectorWidth` contiguous elements per thread
/// along the innermost dim (fewer if the dim is narrower), lanes along the
/// innermost dims first (coalescing), warps along the outermost dims first
/// (so that rows stay within a warp for row reductions).
Layout getBlockedLayout(llvm::ArrayRef<int64_t> shape, int64_t numWarps,
                        int64_t vectorWidth);

/// The accumulator layout of tile.mma (impl = simt): every thread owns an
/// (M / tr) x (N / tc) register micro-tile made of up-to-4x4 blocks, with
/// tr * tc = 32 * numWarps threads. Fails when the tile has fewer elements
/// than threads or a dim does not split evenly.
std::optional<Layout> getMmaLayout(int64_t m, int64_t n, int64_t numWarps);

/// The accumulator layout of tile.mma (impl = mma_sync): the C fragment of
/// mma.sync.m16n8k16 repeated over the warp grid of getMmaSyncWarpGrid. A
/// lane owns rows lane/4 (+ 8 * warpM) and columns 2 * (lane % 4) + {0, 1}
/// (+ 8 * warpN), repeated every 8 * warpsM rows and 8 * warpsN columns:
///   rows: per_thread 1, lanes 8 (stride 4), warps warpsM (stride 1)
///   cols: per_thread 2, lanes 4 (stride 1), warps warpsN (stride warpsM)
/// Row repeats 2i and 2i + 1 are the fragment rows g and g + 8 of the warp's
/// i-th mma tile along M, column repeat j its j-th tile along N.
std::optional<Layout>
getMmaSyncLayout(int64_t m, int64_t n, int64_t numWarps,
                 tile::MmaWarpSplit split = tile::MmaWarpSplit::balanced);

/// The accumulator layout of tile.mma (impl = wgmma): the same C fragment
/// with every warp along M (warpsM = numWarps, warpsN = 1), which is the
/// wgmma D fragment up to the order of A's staged rows (WgmmaRules.h). Fails
/// unless numWarps is a multiple of 4, M of 16 numWarps and N of 8.
std::optional<Layout> getWgmmaLayout(int64_t m, int64_t n, int64_t numWarps);

/// The layout in which each thread holds exactly the mma.sync A fragments
/// (m16k16, row-major) it needs for an M x K operand A when the warps split
/// M as `warpsM` x 1: the C fragment layout of an M x K accumulator on that
/// grid (two adjacent 8-column C tiles are one 16-wide A tile). Warps past
/// warpsM hold replicas. A value already in this layout (the bf16 cast of an
/// earlier mma's result, as attention's probabilities) feeds the mma from
/// registers, without a trip through shared memory.
Layout getMmaSyncOperandALayout(int64_t m, int64_t k, int64_t numWarps,
                                int64_t warpsM);

/// The accumulator layout of `op` for its impl (mma_sync: getMmaSyncLayout,
/// wgmma: getWgmmaLayout, otherwise getMmaLayout).
std::optional<Layout> getAccumulatorLayout(tile::MmaOp op, int64_t numWarps);

/// The `#tile.blocked` encoding of `layout`.
tile::BlockedEncodingAttr getEncoding(mlir::MLIRContext *ctx,
                                      const Layout &layout);

/// The layout of a tile of type `type`, or nullopt when its encoding is not
/// `#tile.blocked` (or missing).
std::optional<Layout> getLayout(mlir::RankedTensorType type);

/// `type` with the encoding of `layout`.
mlir::RankedTensorType withLayout(mlir::RankedTensorType type,
                                  const Layout &layout);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_LAYOUT_H
