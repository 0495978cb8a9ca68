//===- WgmmaModelTest.cpp - The wgmma fragment and staging model ----------===//
//
// impl = wgmma relies on facts no GPU is needed to check:
//   - the staging swizzle of a 64-element row of K (mmaSyncSwizzle) is the
//     128-byte swizzle the matrix descriptors name, computed by the hardware
//     from the address bits of a 1024-byte aligned buffer;
//   - wgmmaStagedRow is a bijection of the accumulator's rows;
//   - the D fragment of wgmma.mma_async m64nNk16 (warp w % 4 of a warpgroup
//     holds rows 16 (w % 4) + groupID + 8 ((i / 2) % 2) of each 64-row tile,
//     register i column 8 (i / 4) + 2 threadID_in_group + i % 2), with A's
//     rows staged by wgmmaStagedRow and the warpgroup's tiles at 64-row
//     steps, is exactly what getWgmmaLayout says the thread owns, at the
//     vector positions the lowering packs into the instruction's registers,
//     and the layout covers the tile once.
// The index arithmetic below mirrors WgmmaLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "Layout.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace kbench::gpu_lowering;

namespace {

TEST(WgmmaStaging, SwizzleIsTheHardware128ByteSwizzle) {
  // Byte address bits 4..6 (the 16-byte chunk in a 128-byte row) XORed with
  // bits 7..9 (the row within 8): the descriptor's swizzle mode 1.
  for (int64_t row = 0; row < 256; ++row)
    for (int64_t col = 0; col < kWgmmaRowElems; ++col) {
      int64_t linear = 2 * (row * kWgmmaRowElems + col);
      int64_t hardware = linear ^ (((linear >> 7) & 7) << 4);
      EXPECT_EQ(2 * mmaSyncSwizzle(row, col, kWgmmaRowElems), hardware)
          << row << " " << col;
    }
}

TEST(WgmmaStaging, StagedRowsAreABijection) {
  for (int64_t warps : {4, 8, 12, 16})
    for (int64_t m = 16 * warps; m <= 512; m += 16 * warps) {
      if (m % (kWgmmaM * (warps / 4)) != 0)
        continue;
      std::set<int64_t> seen;
      for (int64_t row = 0; row < m; ++row) {
        int64_t staged = wgmmaStagedRow(row, m, warps);
        EXPECT_GE(staged, 0);
        EXPECT_LT(staged, m);
        EXPECT_TRUE(seen.insert(staged).second) << m << " " << warps;
        // Rows keep their place within 8, so the swizzle key is unchanged.
        EXPECT_EQ(staged % 8, row % 8);
      }
    }
}

/// t(d) as the lowering computes it.
int64_t threadCoord(const DimLayout &d, int64_t lane, int64_t warp) {
  return (lane / d.laneStride) % d.lanes +
         d.lanes * ((warp / d.warpStride) % d.warps);
}

struct Shape {
  int64_t m, n, warps;
};

TEST(WgmmaFragments, MatchTheAccumulatorLayout) {
  for (Shape s : {Shape{128, 128, 4}, Shape{128, 128, 8}, Shape{128, 256, 8},
                  Shape{256, 128, 8}, Shape{64, 8, 4}, Shape{192, 64, 12},
                  Shape{128, 64, 4}}) {
    std::optional<Layout> layout = getWgmmaLayout(s.m, s.n, s.warps);
    ASSERT_TRUE(layout) << s.m << "x" << s.n;
    const DimLayout &rows = layout->dims[0], &cols = layout->dims[1];
    int64_t warpgroups = s.warps / 4;
    int64_t tiles = s.m / (kWgmmaM * warpgroups);
    int64_t colCount = cols.count();
    ASSERT_EQ(colCount, s.n / 4);
    ASSERT_EQ(rows.count(), 2 * tiles);
    std::map<std::pair<int64_t, int64_t>, int> owners;
    for (int64_t warp = 0; warp < s.warps; ++warp)
      for (int64_t lane = 0; lane < 32; ++lane) {
        int64_t group = lane / 4, inGroup = lane % 4;
        for (int64_t tile = 0; tile < tiles; ++tile)
          for (int64_t i = 0; i < s.n / 2; ++i) {
            // The shared-memory row of A the instruction multiplies into
            // this register, and the register's column.
            int64_t stagedRow = kWgmmaM * ((warp / 4) * tiles + tile) +
                                16 * (warp % 4) + group + 8 * ((i / 2) % 2);
            int64_t col = 8 * (i / 4) + 2 * inGroup + i % 2;
            // The vector position the lowering packs into register i.
            int64_t p0 = 2 * tile + (i / 2) % 2, p1 = 2 * (i / 4) + i % 2;
            int64_t row =
                rows.offset(p0) + threadCoord(rows, lane, warp) * rows.perThread;
            EXPECT_EQ(wgmmaStagedRow(row, s.m, s.warps), stagedRow)
                << s.m << "x" << s.n << " warp " << warp << " lane " << lane;
            EXPECT_EQ(cols.offset(p1) +
                          threadCoord(cols, lane, warp) * cols.perThread,
                      col);
            ++owners[{row, col}];
          }
      }
    EXPECT_EQ(owners.size(), size_t(s.m * s.n));
    for (auto &[key, count] : owners)
      EXPECT_EQ(count, 1);
  }
}

TEST(WgmmaLayout, RefusesWhatTheRulesRefuse) {
  EXPECT_FALSE(getWgmmaLayout(128, 128, 2)); // not whole warpgroups
  EXPECT_FALSE(getWgmmaLayout(64, 128, 8));  // 32 rows per warpgroup
  EXPECT_FALSE(getWgmmaLayout(128, 12, 4));  // N not a multiple of 8
}

} // namespace
