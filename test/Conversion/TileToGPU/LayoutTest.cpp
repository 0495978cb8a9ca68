//===- LayoutTest.cpp - Coverage of the SIMT thread layouts ---------------===//
//
// The lowering trusts two facts about every layout it builds: each tile
// element is owned by exactly one (thread, vector position) among the
// threads the owner predicate keeps, and the runs of forEachChunk are
// contiguous along the innermost dim. This checks both by enumeration, and
// that the #tile.blocked encoding the IR carries for a layout
// (DistributedLayoutAttrInterface) maps (thread, register) to the same
// coordinates as the lowering's Layout, and the offsets of #tile.shared.
//
//===----------------------------------------------------------------------===//

#include "Layout.h"

#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>
#include <vector>

using namespace kbench::gpu_lowering;

namespace {

/// t(d) as the lowering computes it.
int64_t threadCoord(const DimLayout &d, int64_t lane, int64_t warp) {
  return (lane / d.laneStride) % d.lanes +
         d.lanes * ((warp / d.warpStride) % d.warps);
}

/// Tile coordinates of flat position `flat` of thread (lane, warp).
std::vector<int64_t> coordsOf(const Layout &layout, int64_t flat,
                              int64_t lane, int64_t warp) {
  llvm::SmallVector<int64_t> counts = layout.counts();
  std::vector<int64_t> coords(layout.rank());
  for (int64_t d = layout.rank() - 1; d >= 0; --d) {
    int64_t p = flat % counts[d];
    flat /= counts[d];
    const DimLayout &dim = layout.dims[d];
    coords[d] = dim.offset(p) + threadCoord(dim, lane, warp) * dim.perThread;
  }
  return coords;
}

mlir::MLIRContext &context() {
  static mlir::MLIRContext ctx;
  ctx.loadDialect<kbench::tile::TileDialect>();
  return ctx;
}

void checkCoverage(const Layout &layout, llvm::ArrayRef<int64_t> shape) {
  SCOPED_TRACE(layout.str());
  auto encoding = llvm::cast<kbench::tile::DistributedLayoutAttrInterface>(
      getEncoding(&context(), layout));
  EXPECT_EQ(encoding.getElementsPerThread(shape), layout.numElements());
  EXPECT_EQ(encoding.getNumWarps(), layout.numWarps);
  // The encoding round-trips through a tensor type.
  auto type = withLayout(
      mlir::RankedTensorType::get(shape, mlir::Float32Type::get(&context())),
      layout);
  EXPECT_EQ(getLayout(type), layout);
  ASSERT_EQ(layout.rank(), static_cast<int64_t>(shape.size()));
  int64_t elements = 1;
  for (auto [d, size] : llvm::enumerate(shape)) {
    EXPECT_EQ(layout.dims[d].size, size);
    EXPECT_EQ(size % (layout.dims[d].perThread * layout.dims[d].threads()), 0);
    elements *= size;
  }
  int64_t laneReplicas = 31 & ~layout.usedLaneMask();
  int64_t warpReplicas = (layout.numWarps - 1) & ~layout.usedWarpMask();
  std::map<std::vector<int64_t>, int> owned, held;
  for (int64_t warp = 0; warp < layout.numWarps; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane) {
      bool owner = !(lane & laneReplicas) && !(warp & warpReplicas);
      for (int64_t flat = 0; flat < layout.numElements(); ++flat) {
        std::vector<int64_t> c = coordsOf(layout, flat, lane, warp);
        llvm::SmallVector<int64_t> viaEncoding =
            encoding.getTileCoordinates(shape, warp * 32 + lane, flat);
        ASSERT_EQ(std::vector<int64_t>(viaEncoding.begin(), viaEncoding.end()),
                  c);
        for (auto [d, x] : llvm::enumerate(c))
          ASSERT_TRUE(x >= 0 && x < shape[d]);
        ++held[c];
        if (owner)
          ++owned[c];
      }
    }
  EXPECT_EQ(static_cast<int64_t>(owned.size()), elements);
  int replicas = 32 * layout.numWarps * layout.numElements() / elements;
  for (auto &[c, n] : owned)
    EXPECT_EQ(n, 1);
  for (auto &[c, n] : held)
    EXPECT_EQ(n, replicas);
  // Runs are contiguous along the innermost dim.
  layout.forEachChunk([&](int64_t flat, llvm::ArrayRef<int64_t> offsets) {
    for (int64_t e = 0; e < layout.innerPerThread(); ++e) {
      std::vector<int64_t> c = coordsOf(layout, flat + e, 0, 0);
      for (int64_t d = 0; d < layout.rank(); ++d)
        EXPECT_EQ(c[d], offsets[d] + (d + 1 == layout.rank() ? e : 0));
    }
  });
}

TEST(BlockedLayout, CoversEveryTileOncePerReplica) {
  std::vector<std::vector<int64_t>> shapes = {
      {},        {16},      {1024},    {4, 1024}, {1, 1024}, {8, 32},
      {32, 8},   {64, 64},  {128, 8},  {16, 8},   {2, 2, 64}, {48, 96},
      {4, 3},    {512},     {128, 128}};
  for (const auto &shape : shapes)
    for (int64_t warps : {1, 2, 4, 8})
      for (int64_t width : {1, 2, 4, 8})
        checkCoverage(getBlockedLayout(shape, warps, width), shape);
}

TEST(BlockedLayout, PrefersLanesInnerAndWarpsOuter) {
  Layout layout = getBlockedLayout({4, 1024}, 4, 4);
  EXPECT_EQ(layout.dims[1].perThread, 4);
  EXPECT_EQ(layout.dims[1].lanes, 32);
  EXPECT_EQ(layout.dims[0].warps, 4); // one row per warp: no shared memory
  EXPECT_EQ(layout.numElements(), 32);
}

TEST(MmaLayout, CoversEveryAccumulator) {
  for (int64_t warps : {1, 2, 4, 8})
    for (int64_t m : {16, 32, 64, 128, 256})
      for (int64_t n : {16, 32, 64, 128, 256}) {
        std::optional<Layout> layout = getMmaLayout(m, n, warps);
        if (m * n < 32 * warps) {
          EXPECT_FALSE(layout.has_value());
          continue;
        }
        ASSERT_TRUE(layout.has_value()) << m << "x" << n << " " << warps;
        checkCoverage(*layout, {m, n});
        // No replicas: every thread owns a distinct micro-tile.
        EXPECT_EQ(layout->usedLaneMask(), 31);
        EXPECT_EQ(layout->usedWarpMask(), warps - 1);
      }
}

TEST(MmaLayout, Is8x8PerThreadFor128x128On8Warps) {
  std::optional<Layout> layout = getMmaLayout(128, 128, 8);
  ASSERT_TRUE(layout.has_value());
  EXPECT_EQ(layout->counts(), (llvm::SmallVector<int64_t>{8, 8}));
  EXPECT_EQ(layout->dims[0].perThread, 4);
  EXPECT_EQ(layout->dims[1].perThread, 4);
  EXPECT_EQ(layout->dims[1].lanes, 8);
  EXPECT_EQ(layout->dims[0].lanes, 4);
}

TEST(Layout, DropKeepsTheThreadMapping) {
  Layout layout = getBlockedLayout({8, 64}, 4, 4);
  Layout rows = layout.drop({1});
  ASSERT_EQ(rows.rank(), 1);
  EXPECT_EQ(rows.dims[0], layout.dims[0]);
  Layout permuted = layout.permute({1, 0});
  EXPECT_EQ(permuted.dims[0], layout.dims[1]);
  EXPECT_EQ(layout.insertUnitDim(1).counts(),
            (llvm::SmallVector<int64_t>{layout.counts()[0], 1,
                                        layout.counts()[1]}));
}

// tile-assign-layouts derives the layouts of axis-map ops with takeAxes; it
// must agree with drop, permute and insertUnitDim, which the lowering uses.
TEST(Layout, TakeAxesIsDropPermuteAndInsertUnitDim) {
  Layout layout = getBlockedLayout({8, 64}, 4, 4);
  EXPECT_EQ(layout.takeAxes({0}), layout.drop({1}));
  EXPECT_EQ(layout.takeAxes({1}), layout.drop({0}));
  EXPECT_EQ(layout.takeAxes({1, 0}), layout.permute({1, 0}));
  EXPECT_EQ(layout.takeAxes({0, -1, 1}), layout.insertUnitDim(1));
  EXPECT_EQ(layout.takeAxes({-1, 0, 1}), layout.insertUnitDim(0));
  EXPECT_EQ(layout.takeAxes({0, 1}), layout);
}

TEST(SharedEncoding, PadsRowsAndSwizzles) {
  using kbench::tile::SharedEncodingAttr;
  // Row-major 8x16 with 4 elements of padding per row.
  auto padded = SharedEncodingAttr::get(&context(), {1, 0}, 4, 1, 1, 1);
  EXPECT_EQ(padded.getRowStride({8, 16}), 20);
  EXPECT_EQ(padded.getOffset({8, 16}, {3, 5}), 3 * 20 + 5);
  // Column-major (dim 0 fastest): k-major staging of an MxK operand.
  auto kMajor = SharedEncodingAttr::get(&context(), {0, 1}, 4, 1, 1, 1);
  EXPECT_EQ(kMajor.getOffset({128, 8}, {5, 3}), 3 * 132 + 5);
  // XOR swizzle of groups of 4 over 4 phases: a bijection within each row.
  auto swizzled = SharedEncodingAttr::get(&context(), {1, 0}, 0, 4, 1, 4);
  for (int64_t row = 0; row < 8; ++row) {
    std::map<int64_t, int> seen;
    for (int64_t col = 0; col < 16; ++col) {
      int64_t offset = swizzled.getOffset({8, 16}, {row, col});
      EXPECT_EQ(offset / 16, row);
      ++seen[offset];
    }
    EXPECT_EQ(seen.size(), 16u);
  }
  EXPECT_EQ(swizzled.getOffset({8, 16}, {1, 0}), 16 + 4);
}

} // namespace
