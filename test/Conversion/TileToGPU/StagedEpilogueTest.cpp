//===- StagedEpilogueTest.cpp - The phases of a staged epilogue -----------===//
//
// The staged epilogue (StagedEpilogue.cpp) relies on its plan: each thread
// takes exactly one 16-byte run per row block, the row blocks of a phase
// cover its columns of every row exactly once, every fragment run of the
// accumulator falls in one phase, and the padded buffer fits the bytes it
// was given (the widest phase that does is taken); when none fits, the
// reason is the one a user reads.
//
//===----------------------------------------------------------------------===//

#include "StagedEpiloguePlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <map>

using namespace kbench::gpu_lowering;

namespace {

/// t(d) as the lowering computes it.
int64_t threadCoord(const DimLayout &d, int64_t lane, int64_t warp) {
  return (lane / d.laneStride) % d.lanes +
         d.lanes * ((warp / d.warpStride) % d.warps);
}

struct Case {
  int64_t rows, cols, warps, freeBytes;
  int64_t phaseCols; // expected
};

TEST(StagedEpilogue, PhasesCoverTheTileOnce) {
  mlir::MLIRContext context;
  mlir::Builder b(&context);
  for (Case c : {Case{128, 256, 8, 200000, 256}, Case{128, 256, 8, 40000, 64},
                 Case{128, 256, 8, 21000, 32}, Case{128, 128, 8, 80000, 128},
                 Case{64, 64, 4, 20000, 64}}) {
    std::optional<Layout> acc = getWgmmaLayout(c.rows, c.cols, c.warps);
    ASSERT_TRUE(acc);
    std::string why;
    mlir::FailureOr<EpiloguePlan> plan =
        planEpilogue(c.rows, c.cols, b.getBF16Type(), b.getF32Type(), *acc,
                     c.warps, c.freeBytes, why);
    ASSERT_TRUE(mlir::succeeded(plan)) << why;
    EXPECT_EQ(plan->phaseCols, c.phaseCols) << c.rows << "x" << c.cols;
    EXPECT_EQ(plan->runElems, 8);
    EXPECT_EQ(plan->rowStride, plan->phaseCols + 8);
    EXPECT_LE(c.rows * plan->rowStride * 4, c.freeBytes);
    const Layout &block = plan->block;
    ASSERT_EQ(block.numElements(), 8);
    ASSERT_EQ(block.innerPerThread(), 8);
    // Every (row, column) of a phase once over the threads and row blocks.
    std::map<std::pair<int64_t, int64_t>, int> seen;
    for (int64_t it = 0; it < plan->iterations; ++it)
      for (int64_t warp = 0; warp < c.warps; ++warp)
        for (int64_t lane = 0; lane < 32; ++lane) {
          int64_t row =
              it * plan->blockRows +
              threadCoord(block.dims[0], lane, warp) * block.dims[0].perThread;
          int64_t col =
              threadCoord(block.dims[1], lane, warp) * block.dims[1].perThread;
          for (int64_t e = 0; e < 8; ++e)
            ++seen[{row, col + e}];
        }
    EXPECT_EQ(seen.size(), size_t(c.rows * plan->phaseCols));
    for (auto &[at, count] : seen)
      EXPECT_EQ(count, 1);
    // Every fragment run of the accumulator in one phase, for every thread.
    acc->forEachChunk([&](int64_t, llvm::ArrayRef<int64_t> offsets) {
      for (int64_t lane = 0; lane < 32; ++lane) {
        int64_t t = threadCoord(acc->dims[1], lane, 0);
        int64_t first = offsets[1] + t * acc->dims[1].perThread;
        int64_t last = first + acc->dims[1].perThread - 1;
        EXPECT_EQ(first / plan->phaseCols, last / plan->phaseCols);
      }
    });
  }
}

TEST(StagedEpilogue, NothingFitsSaysWhy) {
  mlir::MLIRContext context;
  mlir::Builder b(&context);
  std::optional<Layout> acc = getWgmmaLayout(128, 256, 8);
  ASSERT_TRUE(acc);
  std::string why;
  mlir::FailureOr<EpiloguePlan> plan = planEpilogue(
      128, 256, b.getBF16Type(), b.getF32Type(), *acc, 8, 9200, why);
  EXPECT_TRUE(mlir::failed(plan));
  EXPECT_EQ(why, "no split of the 128x256 tile into column phases gives "
                 "every one of the 256 threads one 16-byte run per row block "
                 "with a buffer that fits the 9200 bytes of shared memory "
                 "left; use a smaller tile or fewer pipeline stages, or leave "
                 "the epilogue in registers");
}

} // namespace
