//===- CaseCacheTest.cpp - Unit tests of the batch's case cache -----------===//
//
// The cache keeps prepared cases up to its byte budget, first come first
// kept (every bundle visits the cases in the same order), counts hits and
// misses, and keeps nothing with a zero budget (a single kbench-run call).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/CaseCache.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

using namespace kbench;
using namespace kbench::runner;

namespace {

std::shared_ptr<PreparedCase> caseOf(int64_t floats) {
  auto p = std::make_shared<PreparedCase>();
  p->inputs["x"] = at::zeros({floats}, at::kFloat);
  return p;
}

TEST(CaseCache, BytesCountEveryTensor) {
  auto p = caseOf(100);
  p->ref["y"] = at::zeros({10}, at::kFloat);
  p->ref64["y"] = at::zeros({10}, at::kDouble);
  EXPECT_EQ(p->bytes(), 400u + 40u + 80u);
}

TEST(CaseCache, KeepsWhatFitsFirstComeFirstKept) {
  CaseCache cache(1000); // bytes
  EXPECT_TRUE(cache.retains());
  EXPECT_EQ(cache.find("a"), nullptr);
  cache.offer("a", caseOf(100)); // 400 bytes
  cache.offer("b", caseOf(100)); // 800
  cache.offer("c", caseOf(100)); // would be 1200: not kept
  cache.offer("d", caseOf(50));  // 1000: kept
  EXPECT_EQ(cache.retainedCases(), 3u);
  EXPECT_EQ(cache.retainedBytes(), 1000u);
  EXPECT_NE(cache.find("a"), nullptr);
  EXPECT_NE(cache.find("b"), nullptr);
  EXPECT_EQ(cache.find("c"), nullptr);
  EXPECT_NE(cache.find("d"), nullptr);
  EXPECT_EQ(cache.hits, 3u);
  EXPECT_EQ(cache.misses, 2u);
}

TEST(CaseCache, ReturnsTheSameEntry) {
  CaseCache cache(1 << 20);
  auto p = caseOf(4);
  cache.offer("k", p);
  p->referenced = true; // a later step fills the entry in place
  EXPECT_TRUE(cache.find("k")->referenced);
  cache.offer("k", caseOf(4)); // the first one stays
  EXPECT_EQ(cache.find("k"), p);
}

// An entry offered before its references are computed is counted again
// when offered after, and dropped when it no longer fits.
TEST(CaseCache, GrownEntryIsCountedAgain) {
  CaseCache cache(1000);
  auto a = caseOf(50), b = caseOf(50); // 200 bytes each
  cache.offer("a", a);
  cache.offer("b", b);
  EXPECT_EQ(cache.retainedBytes(), 400u);
  a->ref["y"] = at::zeros({50}, at::kFloat);
  cache.offer("a", a);
  EXPECT_EQ(cache.retainedBytes(), 600u);
  b->ref64["y"] = at::zeros({100}, at::kDouble); // 800 more: 1000 for b alone
  cache.offer("b", b);
  EXPECT_EQ(cache.retainedBytes(), 400u); // b dropped, a kept
  EXPECT_EQ(cache.find("b"), nullptr);
  EXPECT_EQ(cache.find("a"), a);
}

TEST(CaseCache, ZeroBudgetKeepsNothing) {
  CaseCache cache(0);
  EXPECT_FALSE(cache.retains());
  cache.offer("a", caseOf(1));
  EXPECT_EQ(cache.find("a"), nullptr);
  EXPECT_EQ(cache.retainedCases(), 0u);
}

TEST(CaseCache, BaselinesPerShape) {
  CaseCache cache(0);
  EXPECT_TRUE(cache.baselines("tune[0]").empty());
  cache.baselines("tune[0]")["eager_tf32_off"] = {{"median_us", 12.5}};
  EXPECT_EQ(cache.baselines("tune[0]")["eager_tf32_off"]["median_us"], 12.5);
  EXPECT_TRUE(cache.baselines("tune[1]").empty());
}

TEST(CaseCache, BudgetFromTheEnvironment) {
  setenv("KBENCH_CASE_CACHE_MB", "3", 1);
  EXPECT_EQ(CaseCache::defaultBudget(), size_t(3) << 20);
  // The variable wins over the GPU's size too.
  EXPECT_EQ(CaseCache::defaultBudget(size_t(80) << 30), size_t(3) << 20);
  unsetenv("KBENCH_CASE_CACHE_MB");
  EXPECT_EQ(CaseCache::defaultBudget(), size_t(4) << 30);
}

TEST(CaseCache, BudgetIsAQuarterOfTheGpuAndAtLeastFourGiB) {
  unsetenv("KBENCH_CASE_CACHE_MB");
  EXPECT_EQ(CaseCache::defaultBudget(size_t(80) << 30), size_t(20) << 30);
  EXPECT_EQ(CaseCache::defaultBudget(size_t(140) << 30), size_t(35) << 30);
  // A small GPU keeps the 4 GiB floor (what every GPU had before).
  EXPECT_EQ(CaseCache::defaultBudget(size_t(8) << 30), size_t(4) << 30);
  CaseCache cache(CaseCache::defaultBudget(size_t(80) << 30));
  EXPECT_EQ(cache.budgetBytes(), size_t(20) << 30);
}

} // namespace
