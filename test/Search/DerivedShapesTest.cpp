//===- DerivedShapesTest.cpp - Derived scoring shapes keep kernel facts ---===//
//
// derivedShapes shrinks one dim of the tune shape at a time to d / 4 - 1;
// a kernel `requires` fact over dims alone moves the extent to the nearest
// one that keeps it, a fact naming a symbol the shape does not give is left
// to the candidate, and a dim that no extent near the target satisfies
// derives no shape.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Scoring.h"

#include <gtest/gtest.h>

using namespace kbench;
using namespace kbench::search;

namespace {

ShapeFact fact(const std::string &text) {
  std::string error;
  std::optional<ShapeFact> parsed = ShapeFact::parse(text, error);
  EXPECT_TRUE(parsed.has_value()) << text << ": " << error;
  // A fact that always holds keeps a failed parse from ending the run.
  return parsed.value_or(ShapeFact(
      ShapeExpr::constant(0), ShapeFact::Relation::EQ, ShapeExpr::constant(0)));
}

/// "H=.. T=.." of each derived shape, dims in name order.
std::vector<std::string> spell(const std::vector<llvm::json::Object> &shapes) {
  std::vector<std::string> out;
  for (const llvm::json::Object &shape : shapes) {
    std::string text;
    for (const char *dim : {"H", "T"})
      if (std::optional<int64_t> v = shape.getInteger(dim))
        text += (text.empty() ? "" : " ") + std::string(dim) + "=" +
                std::to_string(*v);
    out.push_back(text);
  }
  return out;
}

const llvm::json::Object tune{{"H", 128}, {"T", 16384}};

TEST(DerivedShapes, QuarterMinusOneWithoutFacts) {
  EXPECT_EQ(spell(derivedShapes(tune)),
            (std::vector<std::string>{"H=31 T=16384", "H=128 T=4095"}));
}

TEST(DerivedShapes, DimFactMovesTheExtentDown) {
  // rotary_cache's kernel halves each head: H % 2 == 0.
  EXPECT_EQ(spell(derivedShapes(tune, {fact("H % 2 == 0")})),
            (std::vector<std::string>{"H=30 T=16384", "H=128 T=4095"}));
  // A multiple of 8 near 31 lies above it (32) as well as below (24): the
  // nearer wins.
  EXPECT_EQ(spell(derivedShapes(tune, {fact("H % 8 == 0")})),
            (std::vector<std::string>{"H=32 T=16384", "H=128 T=4095"}));
}

TEST(DerivedShapes, FactsOverOtherSymbolsAreLeftToTheCandidate) {
  // Symbols the shape does not give (an unbound param, a derived dim of
  // task.json) leave the fact to the candidate's check and the runner.
  EXPECT_EQ(spell(derivedShapes(tune, {fact("H <= BH"), fact("T % BT == 0")})),
            (std::vector<std::string>{"H=31 T=16384", "H=128 T=4095"}));
}

TEST(DerivedShapes, NoExtentNearTheTargetDerivesNoShape) {
  EXPECT_EQ(spell(derivedShapes(tune, {fact("H == 128")})),
            (std::vector<std::string>{"H=128 T=4095"}));
}

} // namespace
