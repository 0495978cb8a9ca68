//===- MmaSyncModelTest.cpp - The mma_sync fragment and swizzle model -----===//
//
// impl = mma_sync relies on three facts no GPU is needed to check:
//   - the XOR swizzle is a bijection on a staged operand buffer (of halves,
//     or of floats for tf32, which it moves as their bytes), and the
//     eight row addresses of one ldmatrix 8x8 matrix fall in eight different
//     16-byte bank groups (no bank conflict) for every K the lowering stages;
//   - the ldmatrix row addresses a warp gives load every element of its A
//     and B slices once per k16 step;
//   - the C fragment of mma.sync.m16n8k16 (rows groupID and groupID + 8,
//     columns 2 * threadID_in_group + {0, 1}) of the row and column tiles
//     whose A and B rows the ldmatrix addresses chose is exactly what
//     getMmaSyncLayout says the thread owns, at the vector positions the
//     lowering reads and writes, and the layout covers the tile once.
// The index arithmetic below mirrors MmaSyncLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "Layout.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

#include "gtest/gtest.h"

#include <map>
#include <set>

using namespace kbench::gpu_lowering;

namespace {

TEST(MmaSyncSwizzle, IsABijection) {
  // Rows of K, M or N: multiples of 16 elements.
  for (int64_t rowElems = 16; rowElems <= 512; rowElems += 16) {
    int64_t rows = 64;
    std::set<int64_t> seen;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < rowElems; ++c) {
        int64_t at = mmaSyncSwizzle(r, c, rowElems);
        EXPECT_GE(at, 0);
        EXPECT_LT(at, rows * rowElems);
        EXPECT_TRUE(seen.insert(at).second) << rowElems << " " << r << " " << c;
        // Chunks stay whole: 8-element runs move together.
        EXPECT_EQ(at % 8, c % 8);
      }
  }
}

TEST(MmaSyncSwizzle, LdmatrixRowsAreConflictFree) {
  for (int64_t rowElems : {16, 32, 64, 128, 256})
    for (int64_t first = 0; first < 64; first += 8)
      for (int64_t chunk = 0; chunk < rowElems / 8; ++chunk) {
        std::set<int64_t> bankGroups;
        for (int64_t r = first; r < first + 8; ++r) {
          int64_t bytes = 2 * mmaSyncSwizzle(r, 8 * chunk, rowElems);
          EXPECT_EQ(bytes % 16, 0);
          bankGroups.insert((bytes / 16) % 8);
        }
        EXPECT_EQ(bankGroups.size(), 8u)
            << "K = " << rowElems << ", rows " << first << ".., chunk "
            << chunk;
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

TEST(MmaSyncFragments, MatchTheAccumulatorLayout) {
  for (Shape s : {Shape{128, 128, 8}, Shape{64, 64, 4}, Shape{32, 32, 2},
                  Shape{16, 8, 1}, Shape{128, 64, 4}, Shape{64, 256, 8}}) {
    std::optional<MmaSyncWarpGrid> grid =
        getMmaSyncWarpGrid(s.m, s.n, s.warps);
    std::optional<Layout> layout = getMmaSyncLayout(s.m, s.n, s.warps);
    ASSERT_TRUE(grid && layout) << s.m << "x" << s.n;
    const MmaSyncWarpGrid &g = *grid;
    const DimLayout &rows = layout->dims[0], &cols = layout->dims[1];
    int64_t colCount = cols.count();
    ASSERT_EQ(colCount, 2 * g.tilesN);
    ASSERT_EQ(rows.count(), 2 * g.tilesM);
    std::map<std::pair<int64_t, int64_t>, int> owners;
    for (int64_t warp = 0; warp < s.warps; ++warp) {
      int64_t warpM = warp % g.warpsM, warpN = (warp / g.warpsM) % g.warpsN;
      // The A rows ldmatrix reads for row tile i: lane l of matrix j gives
      // mma row (l % 8) + 8 (j % 2); B columns likewise for column tile jt.
      auto rowOfA = [&](int64_t i, int64_t mmaRow) {
        return (2 * i + mmaRow / 8) * 8 * g.warpsM + 8 * warpM + mmaRow % 8;
      };
      auto colOfB = [&](int64_t jt, int64_t mmaCol) {
        return 8 * (g.warpsN * jt + warpN) + mmaCol;
      };
      // Per k16 step the warp's ldmatrix addresses cover its A rows and B
      // columns once for each 8-wide k chunk.
      std::map<std::pair<int64_t, int64_t>, int> loadsA, loadsB;
      for (int64_t i = 0; i < g.tilesM; ++i)
        for (int64_t lane = 0; lane < 32; ++lane) {
          int64_t j = lane / 8, r = lane % 8;
          int64_t row = (j % 2) * 8 * g.warpsM + 8 * warpM + r +
                        i * 16 * g.warpsM;
          EXPECT_EQ(row, rowOfA(i, r + 8 * (j % 2)));
          ++loadsA[{row, j / 2}];
        }
      for (int64_t jt = 0; jt < g.tilesN; jt += 2) {
        bool pair = jt + 1 < g.tilesN;
        for (int64_t lane = 0; lane < (pair ? 32 : 16); ++lane) {
          int64_t j = lane / 8, r = lane % 8;
          int64_t col = 8 * warpN + r + (pair ? (j / 2) * 8 * g.warpsN : 0) +
                        jt * 8 * g.warpsN;
          EXPECT_EQ(col, colOfB(jt + (pair ? j / 2 : 0), r));
          ++loadsB[{col, j % 2}];
        }
      }
      EXPECT_EQ(loadsA.size(), size_t(16 * g.tilesM * 2));
      EXPECT_EQ(loadsB.size(), size_t(8 * g.tilesN * 2));
      for (auto &[key, count] : loadsA)
        EXPECT_EQ(count, 1);
      for (auto &[key, count] : loadsB)
        EXPECT_EQ(count, 1);

      for (int64_t lane = 0; lane < 32; ++lane) {
        int64_t group = lane / 4, inGroup = lane % 4;
        for (int64_t i = 0; i < g.tilesM; ++i)
          for (int64_t jt = 0; jt < g.tilesN; ++jt)
            for (int64_t reg = 0; reg < 4; ++reg) {
              // The PTX C fragment, through the A/B row choice above.
              int64_t row = rowOfA(i, group + 8 * (reg / 2));
              int64_t col = colOfB(jt, 2 * inGroup + reg % 2);
              // The vector position the lowering uses, through the layout.
              int64_t p0 = 2 * i + reg / 2, p1 = 2 * jt + reg % 2;
              EXPECT_EQ(rows.offset(p0) +
                            threadCoord(rows, lane, warp) * rows.perThread,
                        row);
              EXPECT_EQ(cols.offset(p1) +
                            threadCoord(cols, lane, warp) * cols.perThread,
                        col);
              ++owners[{row, col}];
            }
      }
    }
    EXPECT_EQ(owners.size(), size_t(s.m * s.n));
    for (auto &[key, count] : owners)
      EXPECT_EQ(count, 1);
  }
}

TEST(MmaSyncSwizzle, Tf32IsTheSwizzleOfItsBytes) {
  // A row of K floats is staged as the row of 2K halves would be: bijective,
  // 4-float chunks whole, and the ldmatrix rows of 8 consecutive rows at one
  // chunk in 8 different 16-byte bank groups (rows of K, K % 8 == 0).
  for (int64_t rowElems = 8; rowElems <= 256; rowElems += 8) {
    int64_t rows = 64;
    std::set<int64_t> seen;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < rowElems; ++c) {
        int64_t at = mmaSyncSwizzle(r, c, rowElems, /*elementBytes=*/4);
        EXPECT_EQ(2 * at, mmaSyncSwizzle(r, 2 * c, 2 * rowElems));
        EXPECT_GE(at, 0);
        EXPECT_LT(at, rows * rowElems);
        EXPECT_TRUE(seen.insert(at).second) << rowElems << " " << r << " " << c;
        EXPECT_EQ(at % 4, c % 4);
      }
    for (int64_t first = 0; first < rows; first += 8)
      for (int64_t chunk = 0; chunk < rowElems / 4; ++chunk) {
        std::set<int64_t> bankGroups;
        for (int64_t r = first; r < first + 8; ++r)
          bankGroups.insert(
              (4 * mmaSyncSwizzle(r, 4 * chunk, rowElems, 4) / 16) % 8);
        EXPECT_EQ(bankGroups.size(), 8u) << "K = " << rowElems;
      }
  }
}

// tf32 (m16n8k8): the lowering stages A (MxK) and B (NxK) as rows of K in
// floats at mmaSyncSwizzle(.., 4) and, per k8 step, gives ldmatrix.x4 the
// row addresses of MmaSyncLowering.cpp with 4-float matrix rows. ldmatrix
// hands lane L of matrix j the 32-bit word L % 4 of the row lane 8j + L / 4
// addressed. Simulated here over the staged buffer, every register must be
// the PTX fragment element: A a0..a3 = (g, t), (g + 8, t), (g, t + 4),
// (g + 8, t + 4); B b0, b1 = (k t, n g), (k t + 4, n g).
TEST(MmaSyncFragments, Tf32LdmatrixGivesThePtxFragments) {
  for (Shape s : {Shape{64, 64, 4}, Shape{128, 128, 8}, Shape{32, 32, 2},
                  Shape{16, 8, 1}, Shape{64, 24, 2}}) {
    for (int64_t k : {8, 32, 64}) {
      std::optional<MmaSyncWarpGrid> grid =
          getMmaSyncWarpGrid(s.m, s.n, s.warps);
      ASSERT_TRUE(grid);
      const MmaSyncWarpGrid &g = *grid;
      // Where each staged element went: offset -> (row, col).
      auto stage = [&](int64_t rows) {
        std::map<int64_t, std::pair<int64_t, int64_t>> at;
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < k; ++c)
            at[mmaSyncSwizzle(r, c, k, 4)] = {r, c};
        return at;
      };
      auto bufA = stage(s.m), bufB = stage(s.n);
      for (int64_t warp = 0; warp < s.warps; ++warp) {
        int64_t warpM = warp % g.warpsM, warpN = (warp / g.warpsM) % g.warpsN;
        for (int64_t kk = 0; kk < k / 8; ++kk)
          for (int64_t lane = 0; lane < 32; ++lane) {
            int64_t group = lane / 4, inGroup = lane % 4;
            for (int64_t j = 0; j < 4; ++j) {
              int64_t giver = 8 * j + lane / 4, r = giver % 8, gj = giver / 8;
              for (int64_t i = 0; i < g.tilesM; ++i) {
                int64_t row =
                    (gj % 2) * 8 * g.warpsM + 8 * warpM + r + i * 16 * g.warpsM;
                int64_t col = 4 * (gj / 2) + 8 * kk;
                auto got = bufA.at(mmaSyncSwizzle(row, col, k, 4) + inGroup);
                int64_t mmaRow = group + 8 * (j % 2);
                EXPECT_EQ(got.first, (2 * i + mmaRow / 8) * 8 * g.warpsM +
                                         8 * warpM + mmaRow % 8);
                EXPECT_EQ(got.second, 8 * kk + inGroup + 4 * (j / 2));
              }
              for (int64_t jt = 0; jt < g.tilesN; jt += 2) {
                bool pair = jt + 1 < g.tilesN;
                if (!pair && j >= 2)
                  continue; // .x2: matrices 0 and 1 only
                int64_t n = 8 * warpN + r +
                            (pair ? (gj / 2) * 8 * g.warpsN : 0) +
                            jt * 8 * g.warpsN;
                int64_t col = 4 * (gj % 2) + 8 * kk;
                auto got = bufB.at(mmaSyncSwizzle(n, col, k, 4) + inGroup);
                int64_t tileN = jt + (pair ? j / 2 : 0);
                EXPECT_EQ(got.first, 8 * (g.warpsN * tileN + warpN) + group);
                EXPECT_EQ(got.second, 8 * kk + inGroup + 4 * (j % 2));
              }
            }
          }
      }
    }
  }
}

// The A fragment registers of the lowering's register path
// (MmaSyncLowering.cpp, registerFragmentA): register `reg` of row tile i at
// k16 step kk is the pair at flat position (2i + reg % 2) * K/4 + 4 kk +
// 2 (reg / 2) of the thread's vector in getMmaSyncOperandALayout. Through
// that layout, element e of the pair must be the PTX A fragment element:
// row g (+ 8 for odd registers) of the warp's row tile, column 2t + e
// (+ 8 for registers 2 and 3) of the k step.
TEST(MmaSyncFragments, RegisterAMatchesTheOperandLayout) {
  for (Shape s : {Shape{128, 64, 8}, Shape{32, 32, 2}, Shape{64, 128, 4},
                  Shape{16, 16, 1}}) {
    std::optional<MmaSyncWarpGrid> grid =
        getMmaSyncWarpGrid(s.m, 8, s.warps, kbench::tile::MmaWarpSplit::rows);
    ASSERT_TRUE(grid) << s.m << "x" << s.n;
    int64_t k = s.n;
    Layout layout = getMmaSyncOperandALayout(s.m, k, s.warps, grid->warpsM);
    llvm::SmallVector<int64_t> counts = layout.counts();
    for (int64_t warp = 0; warp < s.warps; ++warp)
      for (int64_t lane = 0; lane < 32; ++lane) {
        int64_t group = lane / 4, inGroup = lane % 4;
        for (int64_t i = 0; i < grid->tilesM; ++i)
          for (int64_t kk = 0; kk < k / 16; ++kk)
            for (int64_t reg = 0; reg < 4; ++reg)
              for (int64_t e = 0; e < 2; ++e) {
                int64_t flat =
                    (2 * i + reg % 2) * (k / 4) + 4 * kk + 2 * (reg / 2) + e;
                llvm::SmallVector<int64_t> p = layoutPositions(flat, counts);
                int64_t row = layout.dims[0].offset(p[0]) +
                              threadCoord(layout.dims[0], lane, warp) *
                                  layout.dims[0].perThread;
                int64_t col = layout.dims[1].offset(p[1]) +
                              threadCoord(layout.dims[1], lane, warp) *
                                  layout.dims[1].perThread;
                int64_t warpM = warp % grid->warpsM;
                int64_t mmaRow = group + 8 * (reg % 2);
                EXPECT_EQ(row, (2 * i + mmaRow / 8) * 8 * grid->warpsM +
                                   8 * warpM + mmaRow % 8);
                EXPECT_EQ(col, 16 * kk + 2 * inGroup + 8 * (reg / 2) + e);
              }
      }
  }
}

TEST(MmaSyncWarpGrid, RowsSplitsMOnly) {
  std::optional<MmaSyncWarpGrid> g =
      getMmaSyncWarpGrid(128, 64, 8, kbench::tile::MmaWarpSplit::rows);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->warpsM, 8);
  EXPECT_EQ(g->warpsN, 1);
  EXPECT_EQ(g->tilesM, 1);
  EXPECT_EQ(g->tilesN, 8);
  // 64 rows cannot give 8 warps 16 each.
  EXPECT_FALSE(getMmaSyncWarpGrid(64, 64, 8, kbench::tile::MmaWarpSplit::rows));
  // The balanced grid of the same accumulator is not rows-only.
  EXPECT_NE(getMmaSyncWarpGrid(128, 64, 8)->warpsN, 1);
}

TEST(MmaSyncWarpGrid, PicksSquareWarpTiles) {
  std::optional<MmaSyncWarpGrid> g = getMmaSyncWarpGrid(128, 128, 8);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->warpsM * g->warpsN, 8);
  EXPECT_EQ(g->tilesM * 16 * g->warpsM, 128);
  EXPECT_EQ(g->tilesN * 8 * g->warpsN, 128);
  EXPECT_FALSE(getMmaSyncWarpGrid(16, 8, 2));
  EXPECT_FALSE(getMmaSyncLayout(16, 8, 4));
}

} // namespace
