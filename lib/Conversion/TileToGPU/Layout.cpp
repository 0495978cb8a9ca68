//===- Layout.cpp - Thread layouts of tiles in the SIMT lowering ----------===//
//
// Construction and manipulation of the blocked layouts of Layout.h. Thread
// counts are powers of two (32 lanes, a power-of-two warp count), so each
// dim's lanes and warps occupy contiguous bit ranges of the lane and warp ids.
//
//===----------------------------------------------------------------------===//

#include "Layout.h"

#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

using namespace kbench::gpu_lowering;

int64_t Layout::numElements() const {
  int64_t n = 1;
  for (const DimLayout &d : dims)
    n *= d.count();
  return n;
}

llvm::SmallVector<int64_t> Layout::counts() const {
  llvm::SmallVector<int64_t> result;
  for (const DimLayout &d : dims)
    result.push_back(d.count());
  return result;
}

llvm::SmallVector<int64_t> Layout::countStrides() const {
  llvm::SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t i = rank() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * dims[i + 1].count();
  return strides;
}

void Layout::forEachChunk(
    llvm::function_ref<void(int64_t, llvm::ArrayRef<int64_t>)> fn) const {
  llvm::SmallVector<int64_t> cnt = counts(), strides = countStrides();
  llvm::SmallVector<int64_t> pos(rank(), 0), offsets(rank(), 0);
  int64_t step = innerPerThread();
  for (int64_t flat = 0, n = numElements(); flat < n; flat += step) {
    for (int64_t d = 0; d < rank(); ++d) {
      pos[d] = (flat / strides[d]) % cnt[d];
      offsets[d] = dims[d].offset(pos[d]);
    }
    fn(flat, offsets);
  }
}

static int64_t bitRange(int64_t count, int64_t stride) {
  // count and stride are powers of two: the ids stride * [0, count).
  return (count - 1) * stride;
}

int64_t Layout::usedLaneMask() const {
  int64_t mask = 0;
  for (const DimLayout &d : dims)
    if (d.lanes > 1)
      mask |= bitRange(d.lanes, d.laneStride);
  return mask;
}

int64_t Layout::usedWarpMask() const {
  int64_t mask = 0;
  for (const DimLayout &d : dims)
    if (d.warps > 1)
      mask |= bitRange(d.warps, d.warpStride);
  return mask;
}

Layout Layout::drop(llvm::ArrayRef<int64_t> droppedDims) const {
  Layout result;
  result.numWarps = numWarps;
  for (auto [i, d] : llvm::enumerate(dims))
    if (!llvm::is_contained(droppedDims, static_cast<int64_t>(i)))
      result.dims.push_back(d);
  return result;
}

Layout Layout::permute(llvm::ArrayRef<int64_t> perm) const {
  Layout result;
  result.numWarps = numWarps;
  for (int64_t p : perm)
    result.dims.push_back(dims[p]);
  return result;
}

Layout Layout::insertUnitDim(int64_t dim) const {
  Layout result = *this;
  result.dims.insert(result.dims.begin() + dim, DimLayout());
  return result;
}

Layout Layout::takeAxes(llvm::ArrayRef<int64_t> axes) const {
  Layout result;
  result.numWarps = numWarps;
  for (int64_t axis : axes)
    result.dims.push_back(axis < 0 ? DimLayout() : dims[axis]);
  return result;
}

std::string Layout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto list = [&](auto field) {
    os << '[';
    llvm::interleaveComma(dims, os, [&](const DimLayout &d) { os << field(d); });
    os << ']';
  };
  os << "#blocked<";
  list([](const DimLayout &d) { return d.size; });
  os << " per_thread ";
  list([](const DimLayout &d) { return d.perThread; });
  os << " lanes ";
  list([](const DimLayout &d) { return d.lanes; });
  os << " warps ";
  list([](const DimLayout &d) { return d.warps; });
  os << '>';
  return text;
}

/// Largest power of two dividing both (a power of two) `limit` and `value`.
static int64_t fit(int64_t value, int64_t limit) {
  return std::gcd(value, limit);
}

Layout kbench::gpu_lowering::getBlockedLayout(llvm::ArrayRef<int64_t> shape,
                                               int64_t numWarps,
                                               int64_t vectorWidth) {
  Layout layout;
  layout.numWarps = numWarps;
  int64_t rank = shape.size();
  for (int64_t size : shape) {
    DimLayout d;
    d.size = size;
    layout.dims.push_back(d);
  }
  if (rank == 0)
    return layout;
  DimLayout &inner = layout.dims.back();
  inner.perThread = fit(inner.size, llvm::PowerOf2Ceil(vectorWidth));

  int64_t lanesLeft = 32, laneStride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    DimLayout &d = layout.dims[i];
    d.lanes = fit(d.size / d.perThread, lanesLeft);
    d.laneStride = laneStride;
    laneStride *= d.lanes;
    lanesLeft /= d.lanes;
  }
  int64_t warpsLeft = numWarps, warpStride = 1;
  for (int64_t i = 0; i < rank; ++i) {
    DimLayout &d = layout.dims[i];
    d.warps = fit(d.size / (d.perThread * d.lanes), warpsLeft);
    d.warpStride = warpStride;
    warpStride *= d.warps;
    warpsLeft /= d.warps;
  }
  return layout;
}

std::optional<Layout> kbench::gpu_lowering::getMmaLayout(int64_t m, int64_t n,
                                                          int64_t numWarps) {
  int64_t threads = 32 * numWarps;
  // Split the threads into a tr x tc grid that keeps the per-thread micro-tile
  // as square as possible: square micro-tiles need the fewest shared-memory
  // reads per FMA.
  int64_t tr = 1, tc = 1;
  while (tr * tc < threads) {
    bool rowsFit = m % (2 * tr) == 0;
    bool colsFit = n % (2 * tc) == 0;
    if (rowsFit && (!colsFit || m / tr >= n / tc))
      tr *= 2;
    else if (colsFit)
      tc *= 2;
    else
      return std::nullopt;
  }
  // Lanes: 8 along N and 4 along M when the grid allows, so a warp reads 4
  // distinct A and 8 distinct B fragments per k step.
  int64_t lr = fit(tr, 4), lc = 32 / lr;
  if (tc % lc != 0) {
    lc = fit(tc, 32);
    lr = 32 / lc;
    if (tr % lr != 0)
      return std::nullopt;
  }
  Layout layout;
  layout.numWarps = numWarps;
  DimLayout rows, cols;
  rows.size = m;
  rows.perThread = fit(m / tr, 4);
  rows.lanes = lr;
  rows.laneStride = lc;
  rows.warps = tr / lr;
  rows.warpStride = 1;
  cols.size = n;
  cols.perThread = fit(n / tc, 4);
  cols.lanes = lc;
  cols.laneStride = 1;
  cols.warps = tc / lc;
  cols.warpStride = tr / lr;
  layout.dims = {rows, cols};
  return layout;
}

/// The mma.sync C fragment repeated over a warpsM x warpsN warp grid.
static Layout getFragmentLayout(int64_t m, int64_t n, int64_t numWarps,
                                int64_t warpsM, int64_t warpsN) {
  Layout layout;
  layout.numWarps = numWarps;
  DimLayout rows, cols;
  rows.size = m;
  rows.perThread = 1;
  rows.lanes = 8;
  rows.laneStride = 4;
  rows.warps = warpsM;
  rows.warpStride = 1;
  cols.size = n;
  cols.perThread = 2;
  cols.lanes = 4;
  cols.laneStride = 1;
  cols.warps = warpsN;
  cols.warpStride = warpsM;
  layout.dims = {rows, cols};
  return layout;
}

std::optional<Layout>
kbench::gpu_lowering::getMmaSyncLayout(int64_t m, int64_t n, int64_t numWarps,
                                       tile::MmaWarpSplit split) {
  std::optional<MmaSyncWarpGrid> grid =
      getMmaSyncWarpGrid(m, n, numWarps, split);
  if (!grid)
    return std::nullopt;
  return getFragmentLayout(m, n, numWarps, grid->warpsM, grid->warpsN);
}

Layout kbench::gpu_lowering::getMmaSyncOperandALayout(int64_t m, int64_t k,
                                                      int64_t numWarps,
                                                      int64_t warpsM) {
  return getFragmentLayout(m, k, numWarps, warpsM, 1);
}

std::optional<Layout> kbench::gpu_lowering::getWgmmaLayout(int64_t m,
                                                           int64_t n,
                                                           int64_t numWarps) {
  if (numWarps % 4 != 0 || m % (16 * numWarps) != 0 || n % 8 != 0)
    return std::nullopt;
  return getFragmentLayout(m, n, numWarps, numWarps, 1);
}

std::optional<Layout>
kbench::gpu_lowering::getAccumulatorLayout(tile::MmaOp op, int64_t numWarps) {
  llvm::ArrayRef<int64_t> c = op.getAcc().getType().getShape();
  if (op.getImplKind() == tile::MmaImpl::mma_sync)
    return getMmaSyncLayout(c[0], c[1], numWarps, op.getWarpSplitKind());
  if (op.getImplKind() == tile::MmaImpl::wgmma)
    return getWgmmaLayout(c[0], c[1], numWarps);
  return getMmaLayout(c[0], c[1], numWarps);
}

kbench::tile::BlockedEncodingAttr
kbench::gpu_lowering::getEncoding(mlir::MLIRContext *ctx,
                                  const Layout &layout) {
  llvm::SmallVector<int64_t> perThread, lanes, laneStrides, warps, warpStrides;
  for (const DimLayout &d : layout.dims) {
    perThread.push_back(d.perThread);
    lanes.push_back(d.lanes);
    laneStrides.push_back(d.laneStride);
    warps.push_back(d.warps);
    warpStrides.push_back(d.warpStride);
  }
  return kbench::tile::BlockedEncodingAttr::get(ctx, perThread, lanes, laneStrides,
                                        warps, warpStrides, layout.numWarps);
}

std::optional<Layout>
kbench::gpu_lowering::getLayout(mlir::RankedTensorType type) {
  auto enc = llvm::dyn_cast_or_null<kbench::tile::BlockedEncodingAttr>(
      type.getEncoding());
  if (!enc || enc.getRank() != type.getRank())
    return std::nullopt;
  Layout layout;
  layout.numWarps = enc.getNumWarps();
  for (int64_t i = 0; i < type.getRank(); ++i) {
    DimLayout d;
    d.size = type.getDimSize(i);
    d.perThread = enc.getPerThread()[i];
    d.lanes = enc.getLanes()[i];
    d.laneStride = enc.getLaneStrides()[i];
    d.warps = enc.getWarps()[i];
    d.warpStride = enc.getWarpStrides()[i];
    layout.dims.push_back(d);
  }
  return layout;
}

mlir::RankedTensorType
kbench::gpu_lowering::withLayout(mlir::RankedTensorType type,
                                 const Layout &layout) {
  return mlir::RankedTensorType::get(
      type.getShape(), type.getElementType(),
      getEncoding(type.getContext(), layout));
}

llvm::SmallVector<int64_t>
kbench::gpu_lowering::layoutPositions(int64_t flat,
                                      llvm::ArrayRef<int64_t> counts) {
  llvm::SmallVector<int64_t> pos(counts.size());
  for (int64_t d = static_cast<int64_t>(counts.size()) - 1; d >= 0; --d) {
    pos[d] = flat % counts[d];
    flat /= counts[d];
  }
  return pos;
}
