//===- TimingTest.cpp - Unit tests for the host side of the timing protocol ===//
//
// What needs no GPU: the order statistics of a contestant's samples and the
// names of the L2 flush modes (kbench-run --l2-flush).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Timing.h"

#include <gtest/gtest.h>

using namespace kbench;
using namespace kbench::runner;

namespace {

TEST(Timing, L2FlushModes) {
  EXPECT_EQ(parseL2Flush("read"), L2Flush::Read);
  EXPECT_EQ(parseL2Flush("write"), L2Flush::Write);
  EXPECT_FALSE(parseL2Flush("invalidate").has_value());
  EXPECT_STREQ(l2FlushName(L2Flush::Read), "read");
  EXPECT_STREQ(l2FlushName(L2Flush::Write), "write");
  // The default flush leaves the L2 clean (docs/runner.md, "Timing").
  EXPECT_EQ(TimingProtocol().flush, L2Flush::Read);
}

// The screening protocol is shorter than the full one and says so.
TEST(Timing, ScreenProtocol) {
  TimingProtocol full = TimingProtocol::full(), screen = TimingProtocol::screen();
  EXPECT_EQ(full.name, "full");
  EXPECT_EQ(screen.name, "screen");
  EXPECT_FALSE(full.baselinesOnce);
  EXPECT_TRUE(screen.baselinesOnce);
  EXPECT_LT(screen.warmup, full.warmup);
  EXPECT_LT(screen.minReps, full.minReps);
  EXPECT_LT(screen.minSeconds, full.minSeconds);
  EXPECT_EQ(screen.flush, full.flush); // the same L2 flush
}

TEST(Timing, OrderStatistics) {
  TimingStats s = summarize({4, 1, 3, 2, 100});
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.mean, 22);
  EXPECT_EQ(s.n, 5);
}

} // namespace
