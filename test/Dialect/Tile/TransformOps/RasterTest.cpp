//===- RasterTest.cpp - The grouped block remap and its proof -------------===//

#include "kbench/Dialect/Tile/TransformOps/Raster.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace kbench::tile;

namespace {

TEST(RasterTest, GroupedOrderWalksColumnsOfAGroup) {
  // A 4x3 grid with groups of 2 rows: blocks 0..5 cover rows 0-1 column by
  // column, blocks 6..11 rows 2-3.
  const std::pair<int64_t, int64_t> expected[] = {
      {0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},
      {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2}};
  for (int64_t pid = 0; pid < 12; ++pid)
    EXPECT_EQ(groupedBlockRemap(pid, 4, 3, 2), expected[pid]) << "pid " << pid;
}

TEST(RasterTest, RaggedLastGroupStaysInTheGrid) {
  // 5 rows in groups of 2: the last group has one row.
  EXPECT_EQ(groupedBlockRemap(8, 5, 2, 2),
            std::make_pair(int64_t(4), int64_t(0)));
  EXPECT_EQ(groupedBlockRemap(9, 5, 2, 2),
            std::make_pair(int64_t(4), int64_t(1)));
}

TEST(RasterTest, GroupedRemapIsBijective) {
  for (int64_t groupM : {1, 2, 3, 7, 8, 16, 100}) {
    int64_t m = 0, n = 0, pid = 0;
    EXPECT_TRUE(isBlockRemapBijective(groupedBlockRemap, groupM, 40, m, n, pid))
        << "group_m " << groupM << " fails on " << m << "x" << n << " at "
        << pid;
  }
}

/// Grouped order that forgets to shrink the last group: blocks of a ragged
/// last group land on rows past the grid.
std::pair<int64_t, int64_t> forgetsRaggedGroup(int64_t pid, int64_t gridM,
                                               int64_t gridN, int64_t groupM) {
  int64_t perGroup = groupM * gridN;
  int64_t inGroup = pid % perGroup;
  return {(pid / perGroup) * groupM + inGroup % groupM, inGroup / groupM};
}

/// Row-major order that wraps columns onto one row.
std::pair<int64_t, int64_t> collides(int64_t pid, int64_t gridM, int64_t gridN,
                                     int64_t) {
  return {0, pid % gridN};
}

TEST(RasterTest, CheckerFindsBrokenRemaps) {
  int64_t m = 0, n = 0, pid = 0;
  EXPECT_FALSE(isBlockRemapBijective(forgetsRaggedGroup, 2, 8, m, n, pid));
  EXPECT_EQ(m % 2, 1) << "first failure must be a ragged grid";
  EXPECT_FALSE(isBlockRemapBijective(collides, 1, 8, m, n, pid));
  EXPECT_EQ(std::make_pair(m, n), std::make_pair(int64_t(2), int64_t(1)));
  EXPECT_EQ(pid, 1);
}

} // namespace
