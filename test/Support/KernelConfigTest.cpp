//===- KernelConfigTest.cpp - Unit tests for the knob table ---------------===//

#include "kbench/Support/KernelConfig.h"

#include <gtest/gtest.h>

using namespace kbench;

namespace {

TEST(KnobTable, EveryKnobHasOneRow) {
  for (Knob knob : {Knob::NumWarps, Knob::VectorWidth, Knob::GroupM,
                    Knob::PipelineStages, Knob::TileSize})
    EXPECT_EQ(getKnobSpec(knob).knob, knob);
  EXPECT_EQ(lookupKnob("num_warps")->knob, Knob::NumWarps);
  EXPECT_EQ(lookupKnob("vector_width")->knob, Knob::VectorWidth);
  EXPECT_EQ(lookupKnob("group_m")->knob, Knob::GroupM);
  EXPECT_EQ(lookupKnob("tile.pipeline_stages")->knob, Knob::PipelineStages);
  EXPECT_EQ(lookupKnob("BM"), nullptr); // tile sizes have no fixed name
  EXPECT_EQ(lookupKnob(""), nullptr);
}

TEST(KnobTable, NumWarpsIsAPowerOfTwoUpToTheThreadLimit) {
  for (int64_t warps : {1, 2, 4, 8, 16, 32})
    EXPECT_FALSE(checkKnobValue(Knob::NumWarps, warps)) << warps;
  for (int64_t warps : {0, -4, 3, 6, 12, 24, 33, 64})
    EXPECT_TRUE(checkKnobValue(Knob::NumWarps, warps)) << warps;
  EXPECT_EQ(getKnobSpec(Knob::NumWarps).max * kSm90aLimits.warpSize,
            kSm90aLimits.maxThreadsPerBlock);
  EXPECT_EQ(*checkKnobValue(Knob::NumWarps, 12),
            "num_warps = 12 is not a power of two from 1 to 32 (the SIMT "
            "lowering splits tiles over warps in powers of two, and a CTA has "
            "at most 1024 threads)");
}

TEST(KnobTable, VectorWidthFitsOneAccess) {
  for (int64_t width : {1, 2, 4, 8, 16})
    EXPECT_FALSE(checkKnobValue(Knob::VectorWidth, width)) << width;
  for (int64_t width : {0, 3, 5, 12, 32})
    EXPECT_TRUE(checkKnobValue(Knob::VectorWidth, width)) << width;
  EXPECT_EQ(maxVectorWidth(1), 16);
  EXPECT_EQ(maxVectorWidth(2), 8);
  EXPECT_EQ(maxVectorWidth(4), 4);
  EXPECT_EQ(maxVectorWidth(8), 2);
}

TEST(KnobTable, RangesOfPlainKnobsAndTileSizes) {
  EXPECT_FALSE(checkKnobValue(Knob::GroupM, 1));
  EXPECT_FALSE(checkKnobValue(Knob::GroupM, 7)); // any positive value
  EXPECT_EQ(*checkKnobValue(Knob::GroupM, 0),
            "group_m = 0 is outside 1..65536; a group holds at least one row "
            "of blocks");
  EXPECT_FALSE(checkKnobValue(Knob::PipelineStages, 1)); // off
  EXPECT_FALSE(checkKnobValue(Knob::PipelineStages, 2)); // double buffering
  EXPECT_TRUE(checkKnobValue(Knob::PipelineStages, 0));
  EXPECT_FALSE(checkKnobValue(Knob::PipelineStages, 4)); // cp.async stages
  EXPECT_TRUE(checkKnobValue(Knob::PipelineStages, 5));
  EXPECT_EQ(*checkKnobValue(Knob::TileSize, 100000, "BK"),
            "BK = 100000 is outside 1..65536; tile sizes are positive");
}

TEST(KnobTable, LegalValuesInWords) {
  EXPECT_EQ(describeLegalValues(Knob::NumWarps), "1, 2, 4, 8, 16 or 32");
  EXPECT_EQ(describeLegalValues(Knob::NumWarps, kSm90aLimits.warpgroupWarps),
            "4, 8, 16 or 32");
  EXPECT_EQ(describeLegalValues(Knob::GroupM), "1..65536");
}

TEST(KernelConfig, DefaultsAndTileSizes) {
  KernelConfig config = KernelConfig::fromParams({{"BM", 64}, {"BN", 128}});
  EXPECT_EQ(config.numWarps, 4);
  EXPECT_EQ(config.vectorWidth, 1);
  EXPECT_EQ(config.groupM, 1);
  EXPECT_EQ(config.getBlockSize(), 128);
  EXPECT_EQ(config.tileSizes, (SymbolValues{{"BM", 64}, {"BN", 128}}));
  EXPECT_FALSE(config.verify());

  config = KernelConfig::fromParams(
      {{"BM", 64}, {"num_warps", 8}, {"vector_width", 4}, {"group_m", 8}});
  EXPECT_EQ(config.numWarps, 8);
  EXPECT_EQ(config.vectorWidth, 4);
  EXPECT_EQ(config.groupM, 8);
  EXPECT_EQ(config.tileSizes, (SymbolValues{{"BM", 64}}));
  EXPECT_EQ(config.getBlockSize(), 256);
}

TEST(KernelConfig, VerifyNamesTheFirstBadKnob) {
  EXPECT_EQ(*KernelConfig::fromParams({{"num_warps", 12}}).verify(),
            *checkKnobValue(Knob::NumWarps, 12));
  EXPECT_EQ(*KernelConfig::fromParams({{"vector_width", 3}}).verify(),
            *checkKnobValue(Knob::VectorWidth, 3));
  EXPECT_EQ(*KernelConfig::fromParams({{"BM", 0}}).verify(),
            "BM = 0 is outside 1..65536; tile sizes are positive");
}

TEST(KnobTable, MarkdownHasMarkersAndEveryKnob) {
  std::string table = renderKnobTableMarkdown();
  EXPECT_EQ(table.find(kKnobTableBegin), 0u);
  EXPECT_NE(table.find(kKnobTableEnd), std::string::npos);
  for (const KnobSpec &spec : getKnobTable())
    EXPECT_NE(table.find(spec.op), std::string::npos) << spec.op;
  EXPECT_NE(table.find("| 232448 |"), std::string::npos);
  std::string json = renderKnobTableJson();
  EXPECT_NE(json.find("\"param\": \"vector_width\""), std::string::npos);
}

} // namespace

TEST(ResidentCtas, TheScarcestResourceOfAnSmDecides) {
  // matmul_bf16's cp.async default: 128 threads, 217 registers (7168 per
  // warp once rounded to 256), 97 KB of shared memory: registers allow 2,
  // shared memory 2.
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 128, 217, 99312), 2);
  // Its TMA kernel with a producer warpgroup: 256 threads at 128 registers:
  // 2 by registers, 2 by shared memory.
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 256, 128, 99312), 2);
  // A small memory-bound kernel: 128 threads, 32 registers, no shared
  // memory: 16 by threads (2048 / 128).
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 128, 32, 0), 16);
  // 32-thread CTAs are capped by the 32 block slots.
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 32, 16, 0), 32);
  // One CTA that needs more than half the SM's shared memory.
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 256, 168, 198704), 1);
  // Never below one, even for a launch the SM could not hold.
  EXPECT_EQ(residentCtasPerSm(kSm90aLimits, 1024, 255, 232448), 1);
}
